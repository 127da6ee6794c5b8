// /proc/mdstat as data: Linux software RAID arrays, their level, members and health.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nasperf::sysinfo {

struct MdArray {
  std::string name;                     // "md0"
  std::string state;                    // "active" or "inactive"
  std::optional<std::string> level;     // "raid1", "raid5", "linear"; nullopt when not shown (inactive)
  std::vector<std::string> members;     // every listed device ("sda1"), by role number
  std::vector<std::string> failed;      // members marked (F)
  std::vector<std::string> spares;      // members marked (S)
  std::optional<int> devices_wanted;    // "[3/2]" -> 3
  std::optional<int> devices_working;   // "[3/2]" -> 2
  std::optional<uint64_t> chunk_bytes;  // "512k chunk" on the size line
};

// Every array in the text, in order; lines that do not parse are skipped.
std::vector<MdArray> ParseMdstat(std::string_view text);

}  // namespace nasperf::sysinfo
