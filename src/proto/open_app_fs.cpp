// OpenAppFileSystem: the local directory or the scheme's factory.
#include "proto/open_app_fs.h"

#include <sys/stat.h>

#include <cerrno>

#include "proto/schemes.h"
#include "proto/url.h"
#include "target/local_app_fs.h"

namespace nasperf {
namespace {

Status ServesNoFiles(const std::string& target, const std::string& what) {
  return Status::BadInput("TARGET: " + target + " is " + what +
                          ", which serves no files: application workloads need a directory, " +
                          ListSchemes([](const Scheme& s) { return s.sweepable; }, "or"));
}

}  // namespace

Result<std::unique_ptr<AppFileSystem>> OpenAppFileSystem(const std::string& target, const TargetOptions& options) {
  if (target == "null:") return ServesNoFiles(target, "the null target");
  if (target.find("://") != std::string::npos) {
    Result<ProtocolUrl> url = ParseProtocolUrl(target);
    if (!url.ok()) return url.status();
    const Scheme* row = FindScheme(url.value().scheme);
    Result<const SchemeCode*> code = LoadScheme(*row);
    if (!code.ok()) return code.status();
    if (!code.value()->make_app_fs) return ServesNoFiles(url.value().display(), "a " + row->noun);
    return code.value()->make_app_fs(url.value(), options);
  }
  if (target.empty()) return Status::BadInput("TARGET: empty path");
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) return ErrnoStatus("TARGET:", target, errno, ErrorKind::kBadInput);
  if (!S_ISDIR(st.st_mode)) return ServesNoFiles(target, S_ISBLK(st.st_mode) ? "a block device" : "not a directory");
  return OpenLocalAppFileSystem(target, options.keep_on_exit);
}

}  // namespace nasperf
