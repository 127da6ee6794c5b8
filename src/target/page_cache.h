// Dropping a file from the page cache, and checking that it worked: a read measured
// "uncached" must not quietly come from RAM. Unprivileged: fsync + posix_fadvise
// (DONTNEED) on the file; as root and when asked, also /proc/sys/vm/drop_caches.
#pragma once

#include <cstdint>
#include <string>

#include "core/target.h"
#include "nasperf/status.h"

namespace nasperf {

// Share (0..100) of the first `bytes` of the open file that are in the page cache,
// from mincore() on a read-only mapping; 0 for an empty range.
Result<double> ResidentPercent(int fd, uint64_t bytes);

// "tmpfs" or "ramfs" when the open regular file lives on a file system that keeps files
// only in RAM; "" otherwise (a block device's node sits on devtmpfs, but its data does not).
std::string RamFileSystemOf(int fd);

// Writes the file's dirty pages, asks the kernel to drop its cached pages and, with
// `system_wide` (root only), drops every clean cache too. Then measures what stayed. On
// tmpfs or ramfs it drops nothing and reports the file system (ram_fs).
Result<CacheDropReport> DropFromPageCache(const std::string& path, uint64_t bytes, bool system_wide);
// The same for a file already open (any access mode); `path` names it in errors.
Result<CacheDropReport> DropFromPageCache(int fd, const std::string& path, uint64_t bytes, bool system_wide);

// Whether /proc/sys/vm/drop_caches can be written (root); `why` says why not.
bool CanDropSystemCaches(std::string* why);

}  // namespace nasperf
