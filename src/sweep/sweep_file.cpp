// SweepFile.
#include "sweep/sweep_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>

#include "proto/nfs/nfs_target.h"
#include "proto/smb/smb_target.h"
#include "proto/url.h"
#include "target/file_layout.h"

namespace nasperf {

SweepFile::SweepFile(std::string directory)
    : directory_(directory), path_(directory + "/.nasperf-" + std::to_string(::getpid()) + "-sweep.dat") {}

SweepFile::~SweepFile() {
  if (exists_) ::unlink(path_.c_str());
}

Status SweepFile::StartNewFile() {
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) return ErrnoStatus("unlink", path_, errno);
  exists_ = false;
  ScopedFd fd(::open(path_.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600));
  if (!fd.valid()) return ErrnoStatus("create", path_, errno);
  exists_ = true;
  return Status::Ok();
}

Status SweepFile::EnsureData(uint64_t bytes, const BufferPattern& pattern) {
  struct stat st {};
  if (exists_ && ::stat(path_.c_str(), &st) == 0 && static_cast<uint64_t>(st.st_size) >= bytes) return Status::Ok();
  if (Status s = StartNewFile(); !s.ok()) return s;
  ScopedFd fd(::open(path_.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd.valid()) return ErrnoStatus("open", path_, errno);
  return LayOutFile(fd.get(), path_, bytes, pattern);
}

Result<uint64_t> SweepFile::FreeBytes() { return nasperf::FreeBytes(directory_.description()); }

Result<CacheDropReport> SweepFile::DropCache(bool system_wide) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return ErrnoStatus("stat", path_, errno);
  return DropFromPageCache(path_, static_cast<uint64_t>(st.st_size), system_wide);
}

Result<std::vector<WorkerFile>> SweepFile::Open(const JobSpec& job) {
  if (DoesReads(job.rw)) {
    // Only whole records are read (and written), so a file of whole records is complete.
    if (Status s = EnsureData(job.size - job.size % job.bs, job.pattern); !s.ok()) return s;
  } else if (!exists_) {
    if (Status s = StartNewFile(); !s.ok()) return s;
  }
  ScopedFd fd(::open(path_.c_str(), OpenFlagsFor(job)));
  if (!fd.valid()) return ErrnoStatus("open", path_, errno);
  std::vector<WorkerFile> files;
  files.push_back(WorkerFile{std::move(fd), 0, job.size, nullptr});
  return files;
}

Result<std::unique_ptr<SweepableTarget>> MakeSweepTarget(const std::string& spec, const TargetOptions& options) {
  if (spec.find("://") != std::string::npos) {
    Result<ProtocolUrl> url = ParseProtocolUrl(spec);
    if (!url.ok()) return url.status();
    if (url.value().scheme == "nfs")
      return std::unique_ptr<SweepableTarget>(new NfsTarget(url.value(), options.connect_timeout_ms));
    if (url.value().scheme == "smb") {
      Result<std::unique_ptr<SmbTarget>> smb = SmbTarget::Make(url.value(), options);
      if (!smb.ok()) return smb.status();
      return std::unique_ptr<SweepableTarget>(std::move(smb).value());
    }
    return Status::BadInput("sweep: TARGET " + url.value().display() + " is not a file system (a sweep needs a "
                            "directory, smb:// or nfs://; measure a LUN with run or quick)");
  }
  struct stat st {};
  if (::stat(spec.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return Status::BadInput("sweep: TARGET '" + spec + "' is not a directory (a sweep creates its own test file there)");
  return std::unique_ptr<SweepableTarget>(new SweepFile(spec));
}

bool IsNetworkFileSystem(const std::string& directory, std::string* type) {
  struct statfs fs {};
  if (::statfs(directory.c_str(), &fs) != 0) return false;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x6969: *type = "nfs"; return true;
    case 0xFF534D42: *type = "cifs"; return true;
    case 0xFE534D42: *type = "smb2"; return true;
    case 0x517B: *type = "smb"; return true;
    case 0x65735546: *type = "fuse"; return true;
    default: return false;
  }
}

}  // namespace nasperf
