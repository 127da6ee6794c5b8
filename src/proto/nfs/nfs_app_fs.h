// The NFS AppFileSystem (core/app_fs.h): proto/remote_app_fs over libnfs's synchronous
// calls, one mount per concurrent caller (proto/session_pool.h). No link is followed:
// every open is O_NOFOLLOW and preceded by an LSTAT (LOOKUP) that must say a regular file,
// creates are O_CREAT|O_EXCL, and every directory on a path is one this run made.
#pragma once

#include <memory>

#include "core/app_fs.h"
#include "core/target.h"
#include "proto/url.h"

namespace nasperf {

Result<std::unique_ptr<AppFileSystem>> MakeNfsAppFs(const ProtocolUrl& url, const TargetOptions& options);

}  // namespace nasperf
