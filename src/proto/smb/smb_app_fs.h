// The SMB AppFileSystem (core/app_fs.h): proto/remote_app_fs over libsmbclient, called in
// this process (file-level calls need no helper process), one session per concurrent
// caller (proto/session_pool.h) since a libsmbclient context must not be shared between
// threads.
//
// Links: over SMB2/3 without POSIX extensions a symbolic link on the server is resolved
// by the server (Samba: `follow symlinks`, confined to the share unless `wide links`);
// the client neither sees nor can refuse it. What holds: the workspace is a directory
// this run made with mkdir (a name that exists, a link included, fails); creates are
// O_CREAT|O_EXCL (FILE_CREATE: fails on any existing name); every directory on a path is
// one this run made; every open is preceded by a stat that must say a regular file; and
// only names this run created are renamed over or removed.
#pragma once

#include <memory>

#include "core/app_fs.h"
#include "core/target.h"
#include "proto/url.h"

namespace nasperf {

Result<std::unique_ptr<AppFileSystem>> MakeSmbAppFs(const ProtocolUrl& url, const TargetOptions& options);

}  // namespace nasperf
