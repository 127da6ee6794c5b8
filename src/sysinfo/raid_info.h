// RAID under a file system: md arrays (sysfs, /proc/mdstat) and btrfs multi-device profiles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf::sysinfo {

// The RAID found (base/inventory.h's RaidFacts): kind "md" or "btrfs", level ("raid1",
// "raid5", "single" ...), members, degradation, chunk. NoRaid() is every value unknown, no members.
RaidFacts NoRaid();

// The first md array among `devices` (WalkBlockDevices' output, top first): level, chunk and
// degradation from /sys/block/mdX/md/, members and health from /proc/mdstat when it lists
// the array, else from the device's slaves. nullopt when no device is md. `root` prefixes /sys, /proc.
std::optional<RaidFacts> MdRaid(const std::vector<BlockDevice>& devices, const std::string& root = "");

// The btrfs file system `uuid` (/sys/fs/btrfs/UUID): data and metadata profiles from the
// allocation/{data,metadata}/ directories, members from devices/, missing devices from devinfo/.
RaidFacts BtrfsRaid(const std::string& uuid, const std::string& root = "");

// The block-group profiles in a btrfs allocation/<type>/ directory: "raid1", or
// "single,raid1" while a balance converts; nullopt when none is there.
std::optional<std::string> BtrfsProfile(const std::string& allocation_dir);

}  // namespace nasperf::sysinfo
