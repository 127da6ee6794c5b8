// LocalAppFile: read, write, sync and close on one descriptor.
#include "target/local_app_file.h"

#include <unistd.h>

#include <cerrno>

namespace nasperf {
namespace {

// A closed file says so instead of reaching a descriptor number someone else now holds.
Status Closed(const std::string& path) { return Status::Io(path + ": file already closed", EBADF); }

template <typename Call>
Result<size_t> Retry(const char* what, const std::string& path, Call call) {
  while (true) {
    ssize_t n = call();
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return ErrnoStatus(what, path, errno);
  }
}

}  // namespace

Result<size_t> LocalAppFile::Write(const void* data, size_t bytes) {
  if (fd_ < 0) return Closed(path_);
  return Retry("write", path_, [&] { return ::write(fd_, data, bytes); });
}

Result<size_t> LocalAppFile::Read(void* data, size_t bytes) {
  if (fd_ < 0) return Closed(path_);
  return Retry("read", path_, [&] { return ::read(fd_, data, bytes); });
}

Result<size_t> LocalAppFile::PWrite(const void* data, size_t bytes, uint64_t offset) {
  if (fd_ < 0) return Closed(path_);
  return Retry("pwrite", path_, [&] { return ::pwrite(fd_, data, bytes, static_cast<off_t>(offset)); });
}

Result<size_t> LocalAppFile::PRead(void* data, size_t bytes, uint64_t offset) {
  if (fd_ < 0) return Closed(path_);
  return Retry("pread", path_, [&] { return ::pread(fd_, data, bytes, static_cast<off_t>(offset)); });
}

Status LocalAppFile::Sync() {
  if (fd_ < 0) return Closed(path_);
  if (::fsync(fd_) != 0) return ErrnoStatus("fsync", path_, errno);
  return Status::Ok();
}

Status LocalAppFile::Close() {
  if (fd_ < 0) return Status::Ok();
  int fd = fd_;
  fd_ = -1;
  // close(2) is where NFS-like file systems report a deferred write error; EINTR still
  // closed the descriptor on Linux, so it is never retried.
  if (::close(fd) != 0 && errno != EINTR) return ErrnoStatus("close", path_, errno);
  return Status::Ok();
}

}  // namespace nasperf
