// Laying out test files and asking the file system about O_DIRECT and space.
#include "target/file_layout.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>

#include "base/units.h"
#include "base/signals.h"
#include "workload/block_size_mix.h"
#include "workload/buffers.h"
#include "workload/run_seed.h"

namespace nasperf {

Status WritePatternBlocks(uint64_t bytes, const BufferPattern& pattern, const BlockWriter& write) {
  constexpr uint64_t kChunk = 1 << 20;
  // A fresh seed per layout: files laid out by two runs share no block a dedupe could merge.
  const uint64_t seed = NewRunSeed();
  Result<BufferPool> pool = BufferPool::Create(1, kChunk, pattern, seed);
  if (!pool.ok()) return pool.status();
  for (uint64_t at = 0, chunk = 0; at < bytes; ++chunk) {
    if (InterruptRequested()) return Status::Interrupted();
    uint64_t len = bytes - at < kChunk ? bytes - at : kChunk;
    pool.value().StampForWrite(0, at, seed, chunk);
    Result<uint64_t> n = write(at, pool.value().slot(0), len);
    if (!n.ok()) return n.status();
    at += n.value();
  }
  return Status::Ok();
}

Status LayOutFile(int fd, const std::string& path, uint64_t bytes, const BufferPattern& pattern) {
  auto write = [&](uint64_t at, const std::byte* data, uint64_t len) -> Result<uint64_t> {
    ssize_t n = ::pwrite(fd, data, len, static_cast<off_t>(at));
    if (n >= 0) return static_cast<uint64_t>(n);
    if (errno == EINTR) return uint64_t{0};
    return ErrnoStatus("laying out", path + " at " + FormatSize(at), errno);
  };
  Status written = WritePatternBlocks(bytes, pattern, write);
  if (!written.ok()) return written;
  if (::fsync(fd) != 0) return ErrnoStatus("fsync", path, errno);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  return Status::Ok();
}

Status ReserveFile(int fd, const std::string& path, uint64_t bytes) {
  if (::fallocate(fd, 0, 0, static_cast<off_t>(bytes)) == 0) return Status::Ok();
  if (errno != EOPNOTSUPP && errno != ENOSYS) return ErrnoStatus("reserving space for", path, errno);
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) return ErrnoStatus("extending", path, errno);
  return Status::Ok();
}

uint32_t DirectIoAlignment(int fd) {
#ifdef STATX_DIOALIGN
  struct statx sx {};
  if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN))
    return sx.stx_dio_offset_align;
#endif
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
    int logical = 0;
    if (ioctl(fd, BLKSSZGET, &logical) == 0 && logical > 0) return static_cast<uint32_t>(logical);
  }
  return 512;  // what every file system that accepted the O_DIRECT open supports
}

Result<uint64_t> FreeBytes(const std::string& path) {
  struct statvfs vfs {};
  if (statvfs(path.c_str(), &vfs) != 0) return ErrnoStatus("statvfs", path, errno, ErrorKind::kBadInput);
  // ramfs and some FUSE file systems report no blocks at all: no limit we can know.
  if (vfs.f_blocks == 0) return UINT64_MAX;
  return static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

Result<uint64_t> FreeBytesOfDir(int dir_fd, const std::string& path) {
  struct statvfs vfs {};
  if (fstatvfs(dir_fd, &vfs) != 0) return ErrnoStatus("statvfs", path, errno, ErrorKind::kBadInput);
  if (vfs.f_blocks == 0) return UINT64_MAX;  // as FreeBytes: no limit we can know
  return static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

Status CheckDirectAlignment(const JobSpec& job, uint32_t alignment, const std::string& where) {
  if (!job.direct || alignment == 0) return Status::Ok();
  if (job.bs % alignment != 0)
    return Status::BadInput("--bs: " + std::to_string(job.bs) + " B is not a multiple of the " +
                            std::to_string(alignment) + " B logical block size that --direct needs on " + where);
  // A mix's sizes are all multiples of its alignment (validated): checking that is enough.
  if (const uint64_t step = AlignmentBytes(job); (HasBlockSizeMix(job) || job.align) && step % alignment != 0)
    return Status::BadInput(std::string(job.align ? "--align: " : "--bs: the mix's smallest size, ") +
                            std::to_string(step) + " B, is not a multiple of the " + std::to_string(alignment) +
                            " B logical block size that --direct needs on " + where);
  if (job.size < alignment)
    return Status::BadInput("--size: smaller than the " + std::to_string(alignment) + " B block --direct needs");
  return Status::Ok();
}

}  // namespace nasperf
