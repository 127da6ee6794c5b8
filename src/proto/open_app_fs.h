// OpenAppFileSystem: from what the user typed (a directory, smb://, nfs://) to an
// AppFileSystem (core/app_fs.h) with a fresh workspace in it.
#pragma once

#include <memory>
#include <string>

#include "core/app_fs.h"
#include "core/target.h"

namespace nasperf {

// A protocol URL goes to its scheme's make_app_fs (proto/schemes.h, its plugin loaded on
// first use); anything else must be a local directory. BadInput for what serves no files
// (null:, a device, a regular file, a LUN), naming it.
Result<std::unique_ptr<AppFileSystem>> OpenAppFileSystem(const std::string& target, const TargetOptions& options);

}  // namespace nasperf
