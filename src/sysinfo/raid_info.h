// RAID under a file system: md arrays (sysfs, /proc/mdstat) and btrfs multi-device profiles.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace nasperf::sysinfo {

// The raid object: {"kind" ("md", "btrfs" or null), "level" ("raid1", "raid5", "single" ...),
// "metadata_level" (btrfs), "members" (device names), "degraded_devices" (members missing
// or failed), "chunk_bytes" (md stripe chunk)}. NoRaid() is every value null, members empty.
nlohmann::ordered_json NoRaid();

// The first md array among `devices` (WalkBlockDevices' output, top first): level, chunk and
// degradation from /sys/block/mdX/md/, members and health from /proc/mdstat when it lists
// the array, else from the device's slaves. nullopt when no device is md. `root` prefixes /sys, /proc.
std::optional<nlohmann::ordered_json> MdRaid(const nlohmann::ordered_json& devices, const std::string& root = "");

// The btrfs file system `uuid` (/sys/fs/btrfs/UUID): data and metadata profiles from the
// allocation/{data,metadata}/ directories, members from devices/, missing devices from devinfo/.
nlohmann::ordered_json BtrfsRaid(const std::string& uuid, const std::string& root = "");

// The block-group profiles in a btrfs allocation/<type>/ directory: "raid1", or
// "single,raid1" while a balance converts; nullopt when none is there.
std::optional<std::string> BtrfsProfile(const std::string& allocation_dir);

}  // namespace nasperf::sysinfo
