// SweepFile.
#include "sweep/sweep_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>

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

Result<CacheDropReport> SweepFile::DropCache(bool system_wide) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return ErrnoStatus("stat", path_, errno);
  return DropFromPageCache(path_, static_cast<uint64_t>(st.st_size), system_wide);
}

Result<std::vector<WorkerFile>> SweepFile::Open(const JobSpec& job) {
  if (DoesReads(job.rw)) {
    if (Status s = EnsureData(job.size, job.pattern); !s.ok()) return s;
  } else if (!exists_) {
    if (Status s = StartNewFile(); !s.ok()) return s;
  }
  ScopedFd fd(::open(path_.c_str(), OpenFlagsFor(job)));
  if (!fd.valid()) return ErrnoStatus("open", path_, errno);
  std::vector<WorkerFile> files;
  files.push_back(WorkerFile{std::move(fd), 0, job.size});
  return files;
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
