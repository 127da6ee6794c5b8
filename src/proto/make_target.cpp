// MakeTarget: from what the user typed to a Target.
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

#include "proto/iscsi/iscsi_target.h"
#include "proto/nfs/nfs_target.h"
#include "proto/smb/smb_target.h"
#include "proto/url.h"
#include "target/block_device.h"
#include "target/directory_target.h"
#include "target/existing_target.h"
#include "target/null_target.h"
#include "core/target.h"

namespace nasperf {

int OpenFlagsFor(const JobSpec& job) {
  int flags = O_CLOEXEC | (DoesWrites(job.rw) ? O_RDWR : O_RDONLY);
  if (job.direct) flags |= O_DIRECT;
  return flags;
}

std::string EngineFor(const JobSpec& job, const Target& target) {
  if (const char* engine = target.required_engine()) return engine;
  return ResolveEngineName(job, false);
}

Result<std::unique_ptr<Target>> MakeTarget(const std::string& spec, const TargetOptions& options) {
  if (spec == "null:") return std::unique_ptr<Target>(new NullTarget());
  size_t scheme = spec.find("://");
  if (scheme != std::string::npos) {
    Result<ProtocolUrl> url = ParseProtocolUrl(spec);
    if (!url.ok()) return url.status();
    if (url.value().scheme == "nfs") return std::unique_ptr<Target>(new NfsTarget(url.value(), options.connect_timeout_ms));
    if (url.value().scheme == "iscsi") return IscsiTarget::Make(url.value(), options);
    if (url.value().scheme == "smb") {
      Result<std::unique_ptr<SmbTarget>> smb = SmbTarget::Make(url.value(), options);
      if (!smb.ok()) return smb.status();
      return std::unique_ptr<Target>(std::move(smb).value());
    }
    return Status::BadInput("TARGET: " + url.value().scheme + ":// targets are not supported by this nasperf");
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
    return std::unique_ptr<Target>(new ExistingTarget(spec, true, info.value().size_bytes, options));
  }
  return Status::BadInput("TARGET: " + spec + " is not a directory, a regular file or a block device");
}

}  // namespace nasperf
