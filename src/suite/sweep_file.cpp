// SweepFile.
#include "suite/sweep_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "proto/make_target.h"
#include "proto/schemes.h"
#include "proto/url.h"
#include "target/file_layout.h"
#include "target/page_cache.h"

namespace nasperf {

SweepFile::SweepFile(std::string directory) : directory_(directory), directory_path_(std::move(directory)) {}

SweepFile::SweepFile(ScopedFd dir_fd, std::string directory)
    : directory_(ScopedFd(dir_fd.valid() ? ::fcntl(dir_fd.get(), F_DUPFD_CLOEXEC, 0) : -1), directory),
      directory_path_(std::move(directory)),
      dir_fd_(std::move(dir_fd)),
      by_fd_(true) {}

SweepFile::~SweepFile() = default;  // file_ removes the file it created, and nothing else

Status SweepFile::StartNewFile() {
  // Only the file this sweep created is removed; a new, exclusively created one follows.
  if (file_) {
    Status removed = file_->Remove();
    file_.reset();
    if (!removed.ok()) return removed;
  }
  Result<OwnFile> created = by_fd_ ? OwnFile::CreateAt(dir_fd_.get(), directory_path_, "sweep")
                                            : OwnFile::Create(directory_path_, "sweep");
  if (!created.ok()) return created.status();
  file_.emplace(std::move(created).value());
  return Status::Ok();
}

Status SweepFile::EnsureData(uint64_t bytes, const BufferPattern& pattern) {
  if (file_) {
    Result<ScopedFd> fd = file_->Reopen(O_RDONLY);
    struct stat st {};
    if (fd.ok() && ::fstat(fd.value().get(), &st) == 0 && static_cast<uint64_t>(st.st_size) >= bytes)
      return Status::Ok();
  }
  if (Status s = StartNewFile(); !s.ok()) return s;
  Result<ScopedFd> fd = file_->Reopen(O_WRONLY);
  if (!fd.ok()) return fd.status();
  return LayOutFile(fd.value().get(), file_->path(), bytes, pattern);
}

Result<uint64_t> SweepFile::FreeBytes() {
  return by_fd_ ? FreeBytesOfDir(dir_fd_.get(), directory_path_) : nasperf::FreeBytes(directory_path_);
}

Result<CacheDropReport> SweepFile::DropCache(bool system_wide) {
  if (!file_) return ErrnoStatus("stat", "the sweep's test file in " + directory_path_, ENOENT);
  Result<ScopedFd> fd = file_->Reopen(O_RDONLY);
  if (!fd.ok()) return fd.status();
  struct stat st {};
  if (::fstat(fd.value().get(), &st) != 0) return ErrnoStatus("stat", file_->path(), errno);
  return DropFromPageCache(file_->path(), static_cast<uint64_t>(st.st_size), system_wide);
}

Result<std::vector<WorkerFile>> SweepFile::Open(const JobSpec& job) {
  if (DoesReads(job.rw)) {
    // Only whole records are read (and written), so a file of whole records is complete.
    if (Status s = EnsureData(job.size - job.size % job.bs, job.pattern); !s.ok()) return s;
  } else if (!file_) {
    if (Status s = StartNewFile(); !s.ok()) return s;
  }
  Result<ScopedFd> fd = file_->Reopen(OpenFlagsFor(job));
  if (!fd.ok()) return fd.status();
  std::vector<WorkerFile> files;
  files.push_back(WorkerFile{std::move(fd).value(), 0, job.size, nullptr});
  return files;
}

Result<std::unique_ptr<SweepableTarget>> MakeSweepTarget(const std::string& spec, const TargetOptions& options) {
  if (spec.find("://") != std::string::npos) {
    Result<ProtocolUrl> url = ParseProtocolUrl(spec);
    if (!url.ok()) return url.status();
    const Scheme* scheme = FindScheme(url.value().scheme);
    if (scheme->sweepable) {
      Result<std::unique_ptr<Target>> target = MakeTarget(spec, options);
      if (!target.ok()) return target.status();
      if (target.value()->AsSweepable()) {
        SweepableTarget* sweepable = target.value().release()->AsSweepable();
        return std::unique_ptr<SweepableTarget>(sweepable);
      }
    }
    return Status::BadInput("sweep: TARGET " + url.value().display() + " is not a file system (a sweep needs a "
                            "directory, " + ListSchemes([](const Scheme& s) { return s.sweepable; }, "or") +
                            "; measure a " + scheme->noun + " with run or quick)");
  }
  struct stat st {};
  if (::stat(spec.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return Status::BadInput("sweep: TARGET '" + spec + "' is not a directory (a sweep creates its own test file there)");
  return std::unique_ptr<SweepableTarget>(new SweepFile(spec));
}

}  // namespace nasperf
