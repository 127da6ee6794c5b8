// Page-cache dropping and residency checks.
#include "target/page_cache.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "base/scoped_fd.h"

namespace nasperf {
namespace {

constexpr const char* kDropCaches = "/proc/sys/vm/drop_caches";
// mincore is asked about at most this much of the file at a time: its result vector
// (one byte per page) stays at 256 KiB however large the file.
constexpr uint64_t kWindowBytes = 1ull << 30;

}  // namespace

Result<double> ResidentPercent(int fd, uint64_t bytes) {
  if (bytes == 0) return 0.0;
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> pages(kWindowBytes / page);
  uint64_t resident = 0, total = 0;
  for (uint64_t offset = 0; offset < bytes; offset += kWindowBytes) {
    uint64_t length = std::min(kWindowBytes, bytes - offset);
    void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(offset));
    if (map == MAP_FAILED) return ErrnoStatus("mmap (page-cache check)", "", errno);
    uint64_t count = (length + page - 1) / page;
    int rc = ::mincore(map, length, pages.data());
    int saved = errno;
    ::munmap(map, length);
    if (rc != 0) return ErrnoStatus("mincore (page-cache check)", "", saved);
    for (uint64_t i = 0; i < count; ++i) resident += pages[i] & 1;
    total += count;
  }
  return 100.0 * static_cast<double>(resident) / static_cast<double>(total);
}

bool CanDropSystemCaches(std::string* why) {
  if (::access(kDropCaches, W_OK) == 0) return true;
  if (why) *why = std::string(kDropCaches) + " is not writable (" + std::strerror(errno) + "); it needs root";
  return false;
}

std::string RamFileSystemOf(int fd) {
  struct stat st {};
  struct statfs fs {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ::fstatfs(fd, &fs) != 0) return "";
  if (fs.f_type == TMPFS_MAGIC) return "tmpfs";
  if (fs.f_type == RAMFS_MAGIC) return "ramfs";
  return "";
}

Result<CacheDropReport> DropFromPageCache(const std::string& path, uint64_t bytes, bool system_wide) {
  ScopedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return ErrnoStatus("open", path, errno);
  return DropFromPageCache(fd.get(), path, bytes, system_wide);
}

Result<CacheDropReport> DropFromPageCache(int fd, const std::string& path, uint64_t bytes, bool system_wide) {
  CacheDropReport report;
  if (std::string ram_fs = RamFileSystemOf(fd); !ram_fs.empty()) {
    // DONTNEED cannot drop what has no other home; mincore would say 100 % and the note
    // would read as a failed drop. Say what the file system is instead.
    report.method = ram_fs + " keeps its files only in RAM";
    report.dropped = false;
    report.ram_fs = ram_fs;
    Result<double> resident = ResidentPercent(fd, bytes);
    if (!resident.ok()) return resident.status();
    report.resident_pct = resident.value();
    report.checked_bytes = bytes;
    return report;
  }
  report.method = "fsync + posix_fadvise(DONTNEED)";
  // DONTNEED skips dirty pages, so they are written first.
  if (::fsync(fd) != 0) return ErrnoStatus("fsync", path, errno);
  if (int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
    return ErrnoStatus("posix_fadvise(DONTNEED)", path, rc);
  if (system_wide) {
    ::sync();
    ScopedFd drop(::open(kDropCaches, O_WRONLY | O_CLOEXEC));
    if (!drop.valid() || ::write(drop.get(), "3\n", 2) != 2)
      return ErrnoStatus("write", kDropCaches, errno);
    report.method += " + " + std::string(kDropCaches);
  }
  Result<double> resident = ResidentPercent(fd, bytes);
  if (!resident.ok()) return resident.status();
  report.resident_pct = resident.value();
  report.checked_bytes = bytes;
  return report;
}

}  // namespace nasperf
