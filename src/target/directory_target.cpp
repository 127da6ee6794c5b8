// DirectoryTarget: own files in a user's directory, created, laid out and removed.
#include "target/directory_target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/units.h"
#include "target/file_layout.h"

namespace nasperf {

DirectoryTarget::~DirectoryTarget() {
  for (const OwnFile& f : files_) ::unlink(f.path.c_str());
}

std::string DirectoryTarget::FilePath(uint32_t thread) const {
  return path_ + "/.nasperf-" + std::to_string(::getpid()) + "-" + std::to_string(thread) + ".dat";
}

Result<uint32_t> DirectoryTarget::Probe(bool direct) {
  static std::atomic<uint32_t> probes{0};
  std::string probe = path_ + "/.nasperf-" + std::to_string(::getpid()) + "-probe" + std::to_string(probes++);
  // Created plainly first: some file systems (ramfs) create the file and only then
  // refuse O_DIRECT, so the O_DIRECT test is a second open, and the unlink always runs.
  ScopedFd created(::open(probe.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600));
  if (!created.valid())
    return ErrnoStatus("TARGET: cannot create files in directory", path_, errno, ErrorKind::kBadInput);
  created.reset();
  uint32_t alignment = 0;
  int direct_errno = 0;
  if (direct) {
    ScopedFd fd(::open(probe.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC));
    if (fd.valid()) alignment = DirectIoAlignment(fd.get());
    else direct_errno = errno;
  }
  ::unlink(probe.c_str());
  if (direct_errno != 0)
    return Status::BadInput("--direct: the file system at " + path_ + " does not support O_DIRECT (open: " +
                            std::strerror(direct_errno) + "); drop --direct");
  if (direct && alignment == 0)
    return Status::BadInput("--direct: the file system at " + path_ + " does not support O_DIRECT; drop --direct");
  return alignment;
}

bool DirectoryTarget::SupportsDirect(std::string* why) {
  Result<uint32_t> probe = Probe(true);
  if (!probe.ok() && why) *why = probe.status().message();
  return probe.ok();
}

Status DirectoryTarget::Check(const JobSpec& job) {
  Result<uint32_t> alignment = Probe(job.direct);
  if (!alignment.ok()) return alignment.status();
  if (Status s = CheckDirectAlignment(job, alignment.value(), path_); !s.ok()) return s;

  uint64_t have = 0;
  for (const OwnFile& f : files_) have += f.size_bytes;
  uint64_t want = job.size * job.threads;
  Result<uint64_t> free_bytes = FreeBytes(path_);
  if (!free_bytes.ok()) return free_bytes.status();
  if (want > have && want - have > free_bytes.value())
    return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) + " needs " +
                            FormatSize(want - have) + " but " + path_ + " has only " +
                            FormatSize(free_bytes.value()) + " free");
  return Status::Ok();
}

Result<std::vector<WorkerFile>> DirectoryTarget::Open(const JobSpec& job) {
  std::vector<WorkerFile> out;
  for (uint32_t t = 0; t < job.threads; ++t) {
    if (t == files_.size()) {
      std::string path = FilePath(t);
      int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
      if (fd < 0) return ErrnoStatus("create", path, errno);
      ::close(fd);
      files_.push_back({path, 0, 0});
    }
    OwnFile& own = files_[t];
    bool needs_data = DoesReads(job.rw) && own.data_bytes < job.size;
    bool needs_space = own.size_bytes < job.size;
    if (needs_data || needs_space) {
      ScopedFd fd(::open(own.path.c_str(), O_WRONLY | O_CLOEXEC));
      if (!fd.valid()) return ErrnoStatus("open", own.path, errno);
      Status s = needs_data ? LayOutFile(fd.get(), own.path, job.size, job.pattern)
                            : ReserveFile(fd.get(), own.path, job.size);
      if (!s.ok()) return s;
      if (needs_data) own.data_bytes = job.size;
      own.size_bytes = std::max(own.size_bytes, job.size);
    }
    ScopedFd fd(::open(own.path.c_str(), OpenFlagsFor(job)));
    if (!fd.valid()) {
      if (job.direct && errno == EINVAL)
        return Status::BadInput("--direct: the file system at " + path_ + " does not support O_DIRECT; drop --direct");
      return ErrnoStatus("open", own.path, errno);
    }
    out.push_back(WorkerFile{std::move(fd), 0, job.size, nullptr});
  }
  return out;
}

Result<CacheDropReport> DirectoryTarget::DropCache(bool system_wide) {
  // Before Open has laid a file out there is nothing to drop or measure: checked_bytes
  // stays 0, and the caller must not call that a cold start.
  CacheDropReport all{"fsync + posix_fadvise(DONTNEED)", 0};
  for (const OwnFile& f : files_) {
    Result<CacheDropReport> drop = DropFromPageCache(f.path, f.size_bytes, system_wide);
    if (!drop.ok()) return drop.status();
    const CacheDropReport& one = drop.value();
    all.method = one.method;
    all.dropped = one.dropped;
    all.ram_fs = one.ram_fs;
    all.resident_pct = std::max(all.resident_pct, one.resident_pct);
    all.checked_bytes += one.checked_bytes;
    system_wide = false;  // once is enough
  }
  return all;
}

}  // namespace nasperf
