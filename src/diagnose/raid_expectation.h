// What the NAS's volume should read, from its members' raw sequential reads and its RAID level.
#pragma once

#include <optional>
#include <string>

#include "model/diagnosis.h"

namespace nasperf::diagnose {

struct RaidExpectation {
  std::string level;  // "raid0", "raid1", "single disk" ...
  size_t members = 0;
  double median_member_mb_per_s = 0;
  double slowest_member_mb_per_s = 0;
  double one_reader_mb_per_s = 0;  // expected sequential read with one reader
  double parallel_mb_per_s = 0;    // with parallel readers: the disks' ceiling
  std::string how;                 // "sum of 2 members", "one member's rate (raid1, one reader)"
  std::string write_note;          // what writes should do, stated (members are only read)
};

// nullopt when no member was read, a member lacks its read figure, or the level is not one
// of: raid0, raid1 (raid1c3, raid1c4), raid10, raid5, raid6, linear, single, dup (md and
// btrfs profiles alike, from RaidFacts.level), or no RAID with one member (a single disk).
std::optional<RaidExpectation> ExpectFromMembers(const Evidence& e);

}  // namespace nasperf::diagnose
