// MakeTarget: from what the user typed to a Target.
#include "proto/make_target.h"

#include <sys/stat.h>

#include <cerrno>

#include "proto/schemes.h"
#include "proto/url.h"
#include "target/block_device.h"
#include "target/directory_target.h"
#include "target/existing_target.h"
#include "target/null_target.h"

namespace nasperf {

Result<std::unique_ptr<Target>> MakeTarget(const std::string& spec, const TargetOptions& options) {
  if (spec == "null:") return std::unique_ptr<Target>(new NullTarget());
  size_t scheme = spec.find("://");
  if (scheme != std::string::npos) {
    Result<ProtocolUrl> url = ParseProtocolUrl(spec);
    if (!url.ok()) return url.status();
    const Scheme* row = FindScheme(url.value().scheme);
    Result<const SchemeCode*> code = LoadScheme(*row);
    if (!code.ok()) return code.status();
    if (!code.value()->make_target)
      return Status::BadInput("TARGET: " + url.value().scheme + ":// targets are not supported by this nasperf");
    return code.value()->make_target(url.value(), options);
  }
  if (spec.empty()) return Status::BadInput("TARGET: empty path");
  struct stat st {};
  if (::stat(spec.c_str(), &st) != 0)
    return ErrnoStatus("TARGET:", spec, errno, ErrorKind::kBadInput);
  if (S_ISDIR(st.st_mode)) return std::unique_ptr<Target>(new DirectoryTarget(spec));
  if (S_ISREG(st.st_mode))
    return std::unique_ptr<Target>(new ExistingTarget(spec, false, static_cast<uint64_t>(st.st_size), options));
  if (S_ISBLK(st.st_mode)) {
    Result<BlockDeviceInfo> info = ProbeBlockDevice(spec);
    if (!info.ok()) return info.status();
    return std::unique_ptr<Target>(
        new ExistingTarget(spec, true, info.value().size_bytes, options, info.value().physical_block_bytes));
  }
  return Status::BadInput("TARGET: " + spec + " is not a directory, a regular file or a block device");
}

}  // namespace nasperf
