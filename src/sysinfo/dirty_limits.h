// The kernel's dirty-page limit: how much written data the page cache holds before a
// writer is throttled to the device's speed (vm.dirty_bytes, else vm.dirty_ratio % of
// the memory available). A buffered write larger than it is not served by RAM.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace nasperf::sysinfo {

struct DirtyLimits {
  uint64_t dirty_bytes = 0;          // vm.dirty_bytes; 0: the ratio applies
  uint64_t dirty_ratio_pct = 0;      // vm.dirty_ratio
  uint64_t mem_available_bytes = 0;  // MemAvailable from /proc/meminfo
  // Bytes a writer may dirty before it is throttled: dirty_bytes when set, else
  // dirty_ratio % of MemAvailable (the kernel's "dirtyable" memory, near enough).
  uint64_t limit_bytes() const;
};

// From the texts of /proc/sys/vm/dirty_ratio, /proc/sys/vm/dirty_bytes and /proc/meminfo;
// nullopt when a figure is missing or not a number (dirty_bytes may be missing: 0).
std::optional<DirtyLimits> ParseDirtyLimits(const std::string& dirty_ratio, const std::string& dirty_bytes,
                                            const std::string& meminfo);
// Reads them under `root` ("" for the real /proc).
std::optional<DirtyLimits> ReadDirtyLimits(const std::string& root = "");

}  // namespace nasperf::sysinfo
