// Helpers shared by file-backed targets: laying out test files, O_DIRECT alignment, free space.
#pragma once

#include <cstdint>
#include <string>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

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

// BadInput unless `bs` is a multiple of `alignment` (for --direct).
Status CheckDirectAlignment(const JobSpec& job, uint32_t alignment, const std::string& where);

}  // namespace nasperf
