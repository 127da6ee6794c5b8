// Helpers for targets: laying out test files (local and protocol), O_DIRECT alignment, free space.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

// Writes `bytes` of `pattern` from offset 0 in blocks of up to 1 MiB (each stamped for its
// offset), handing each block to `write`: it returns how many bytes it wrote, from where the
// next block starts (0: none, go round again), or the error to stop with. Stops with
// kInterrupted on Ctrl-C. For LayOutFile and the protocol targets, which flush and close.
using BlockWriter = std::function<Result<uint64_t>(uint64_t offset, const std::byte* data, uint64_t length)>;
Status WritePatternBlocks(uint64_t bytes, const BufferPattern& pattern, const BlockWriter& write);

// Writes `bytes` of `pattern` into fd from offset 0 (1 MiB writes), makes it durable and
// drops it from the page cache so the first read is not served from RAM.
// Stops with kInterrupted on Ctrl-C, and with kIo on ENOSPC/EIO.
Status LayOutFile(int fd, const std::string& path, uint64_t bytes, const BufferPattern& pattern);

// Reserves `bytes` for a write job (fallocate, or ftruncate where unsupported).
Status ReserveFile(int fd, const std::string& path, uint64_t bytes);

// Direct-I/O offset alignment of an open file (statx STATX_DIOALIGN, or the device's
// logical block size); 0 when the file system does not support O_DIRECT.
uint32_t DirectIoAlignment(int fd);

// Bytes available to an unprivileged writer on the file system holding `path`;
// UINT64_MAX when the file system reports no size (ramfs).
Result<uint64_t> FreeBytes(const std::string& path);
// The same for an open directory (fstatvfs); `path` names it in errors.
Result<uint64_t> FreeBytesOfDir(int dir_fd, const std::string& path);

// BadInput unless `bs` is a multiple of `alignment` (for --direct).
Status CheckDirectAlignment(const JobSpec& job, uint32_t alignment, const std::string& where);

}  // namespace nasperf
