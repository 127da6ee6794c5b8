// The target section of the inventory: file system, mount, space, block devices, RAID and network path.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sysinfo/block_devices.h"

namespace nasperf::sysinfo {

// {"path", "kind", "fs": {"type", "mount_point", "mount_options", "source", "free_bytes",
// "total_bytes"}, "devices": [...] (WalkBlockDevices), "raid": {...} (raid_info.h), "network"}.
// `target` is a path (directory, file or block device; symlinks resolved into "path") or a
// URL ("smb://host/share"). kind: "directory", "file", "block_device", "url", "other", or null
// when the path cannot be stat()ed (then everything else is null or empty). A block device
// has no fs values. "network" is null unless the target is a URL or on a network file system;
// then {"server", "address", "local_address", "nic": DescribeNic of the route's interface}.
// Reads only /proc, /sys and the target's metadata; needs no privileges.
nlohmann::ordered_json GatherTarget(const std::string& target);

struct StorageStack {
  nlohmann::ordered_json devices;
  nlohmann::ordered_json raid;
};
// The devices under `top` ("MAJ:MIN") and the RAID among them: btrfs `btrfs_uuid` when given
// and multi-device (an md array under a single-profile btrfs is the RAID that counts), else
// the first md array, else NoRaid(). `root` prefixes /sys and /proc.
StorageStack DescribeStack(const std::vector<std::string>& top, const std::optional<std::string>& btrfs_uuid,
                           const std::string& root, const FileDevicesFn& devices_of_file);

// "smb://user:secret@nas/share" -> "smb://user:***@nas/share": URLs are stored with results.
std::string RedactUrl(const std::string& url);

}  // namespace nasperf::sysinfo
