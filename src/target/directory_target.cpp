// DirectoryTarget: own files in a user's directory, created, laid out and removed.
#include "target/directory_target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "base/units.h"
#include "target/file_layout.h"
#include "target/local_app_fs.h"
#include "target/page_cache.h"

namespace nasperf {

DirectoryTarget::DirectoryTarget(std::string path)
    : dir_(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)), path_(std::move(path)) {
  if (!dir_.valid()) dir_errno_ = errno;
}

// Each OwnFile removes its file, if it still is the one created.
DirectoryTarget::~DirectoryTarget() = default;

Result<std::unique_ptr<AppFileSystem>> DirectoryTarget::OpenAppFileSystem() {
  if (!dir_.valid()) return ErrnoStatus("TARGET:", path_, dir_errno_, ErrorKind::kBadInput);
  ScopedFd dir(::fcntl(dir_.get(), F_DUPFD_CLOEXEC, 0));
  if (!dir.valid()) return ErrnoStatus("dup directory", path_, errno);
  return OpenLocalAppFileSystemAt(std::move(dir), path_, false);
}

Result<uint32_t> DirectoryTarget::Probe(bool direct) {
  static std::atomic<uint32_t> probes{0};
  if (!dir_.valid())
    return ErrnoStatus("TARGET: cannot create files in directory", path_, dir_errno_, ErrorKind::kBadInput);
  // Created plainly first: some file systems (ramfs) create the file and only then
  // refuse O_DIRECT, so the O_DIRECT test is a second open, and the removal always runs.
  Result<OwnFile> probe = OwnFile::CreateAt(dir_.get(), path_, "probe" + std::to_string(probes++));
  if (!probe.ok())
    return ErrnoStatus("TARGET: cannot create files in directory", path_, probe.status().err(), ErrorKind::kBadInput);
  uint32_t alignment = 0;
  int direct_errno = 0;
  if (direct) {
    Result<ScopedFd> fd = probe.value().Reopen(O_RDWR | O_DIRECT);
    if (fd.ok()) alignment = DirectIoAlignment(fd.value().get());
    else direct_errno = fd.status().err() ? fd.status().err() : EINVAL;
  }
  (void)probe.value().Remove();
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
  if (Status s = CheckLocalEngine(job); !s.ok()) return s;
  Result<uint32_t> alignment = Probe(job.direct);
  if (!alignment.ok()) return alignment.status();
  if (Status s = CheckDirectAlignment(job, alignment.value(), path_); !s.ok()) return s;

  uint64_t have = 0;
  for (const WorkerOwnFile& f : files_) have += f.size_bytes;
  uint64_t want = job.size * job.regions();
  Result<uint64_t> free_bytes = FreeBytesOfDir(dir_.get(), path_);
  if (!free_bytes.ok()) return free_bytes.status();
  if (want > have && want - have > free_bytes.value())
    return Status::BadInput("--size: " + std::to_string(job.regions()) + " x " + FormatSize(job.size) + " needs " +
                            FormatSize(want - have) + " but " + path_ + " has only " +
                            FormatSize(free_bytes.value()) + " free");
  return Status::Ok();
}

Result<std::vector<WorkerFile>> DirectoryTarget::Open(const JobSpec& job) {
  std::vector<WorkerFile> out;
  if (!dir_.valid()) return ErrnoStatus("TARGET: cannot open directory", path_, dir_errno_, ErrorKind::kBadInput);
  for (uint32_t t = 0; t < job.threads; ++t) {
    // --shared-file: one file for every thread, laid out once (fio's clones of filename=).
    const uint32_t index = job.shared_file ? 0 : t;
    if (index == files_.size()) {
      if (!numbered_) {
        number_ = NextOwnTargetNumber();
        numbered_ = true;
      }
      Result<OwnFile> created = OwnFile::CreateAt(dir_.get(), path_, WorkerFileRole(number_, index));
      if (!created.ok()) return created.status();
      files_.push_back({std::move(created).value(), 0, 0});
    }
    WorkerOwnFile& own = files_[index];
    const std::string& path = own.file.path();
    bool needs_data = DoesReads(job.rw) && own.data_bytes < job.size;
    bool needs_space = own.size_bytes < job.size;
    if (needs_data || needs_space) {
      Result<ScopedFd> fd = own.file.Reopen(O_WRONLY);
      if (!fd.ok()) return fd.status();
      Status s = needs_data ? LayOutFile(fd.value().get(), path, job.size, job.pattern)
                            : ReserveFile(fd.value().get(), path, job.size);
      if (!s.ok()) return s;
      if (needs_data) own.data_bytes = job.size;
      own.size_bytes = std::max(own.size_bytes, job.size);
    }
    Result<ScopedFd> fd = own.file.Reopen(OpenFlagsFor(job));
    if (!fd.ok()) {
      if (job.direct && fd.status().err() == EINVAL)
        return Status::BadInput("--direct: the file system at " + path_ + " does not support O_DIRECT; drop --direct");
      return fd.status();
    }
    out.push_back(WorkerFile{std::move(fd).value(), 0, job.size, nullptr});
  }
  return out;
}

Result<CacheDropReport> DirectoryTarget::DropCache(bool system_wide) {
  // Before Open has laid a file out there is nothing to drop or measure: checked_bytes
  // stays 0, and the caller must not call that a cold start.
  CacheDropReport all{"fsync + posix_fadvise(DONTNEED)", 0, true, 0, ""};
  for (const WorkerOwnFile& f : files_) {
    Result<ScopedFd> fd = f.file.Reopen(O_RDONLY);
    if (!fd.ok()) return fd.status();
    Result<CacheDropReport> drop = DropFromPageCache(fd.value().get(), f.file.path(), f.size_bytes, system_wide);
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
