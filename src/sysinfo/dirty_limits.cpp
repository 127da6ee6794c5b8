// Reads and parses vm.dirty_ratio, vm.dirty_bytes and MemAvailable.
#include "sysinfo/dirty_limits.h"

#include <sstream>

#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {
namespace {

// "MemAvailable:   11744216 kB" -> bytes.
std::optional<uint64_t> MemAvailableBytes(const std::string& meminfo) {
  std::istringstream lines(meminfo);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    int64_t kib = -1;
    std::string unit;
    if (!(fields >> kib >> unit) || kib < 0 || unit != "kB") return std::nullopt;
    return static_cast<uint64_t>(kib) * 1024;
  }
  return std::nullopt;
}

}  // namespace

uint64_t DirtyLimits::limit_bytes() const {
  if (dirty_bytes > 0) return dirty_bytes;
  return mem_available_bytes / 100 * dirty_ratio_pct;
}

std::optional<DirtyLimits> ParseDirtyLimits(const std::string& dirty_ratio, const std::string& dirty_bytes,
                                            const std::string& meminfo) {
  DirtyLimits out;
  std::optional<int64_t> ratio = ParseInt(dirty_ratio);
  if (!ratio || *ratio < 0 || *ratio > 100) return std::nullopt;
  out.dirty_ratio_pct = static_cast<uint64_t>(*ratio);
  if (!Trim(dirty_bytes).empty()) {
    std::optional<int64_t> bytes = ParseInt(dirty_bytes);
    if (!bytes || *bytes < 0) return std::nullopt;
    out.dirty_bytes = static_cast<uint64_t>(*bytes);
  }
  std::optional<uint64_t> available = MemAvailableBytes(meminfo);
  if (!available) return std::nullopt;
  out.mem_available_bytes = *available;
  return out;
}

std::optional<DirtyLimits> ReadDirtyLimits(const std::string& root) {
  std::optional<std::string> ratio = ReadFileText(root + "/proc/sys/vm/dirty_ratio");
  std::optional<std::string> meminfo = ReadFileText(root + "/proc/meminfo");
  if (!ratio || !meminfo) return std::nullopt;
  return ParseDirtyLimits(*ratio, ReadFileText(root + "/proc/sys/vm/dirty_bytes").value_or(""), *meminfo);
}

}  // namespace nasperf::sysinfo
