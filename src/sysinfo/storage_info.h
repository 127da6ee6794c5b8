// The target section of the inventory: file system, mount, space, block devices, RAID and network path.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sysinfo/inventory_facts.h"
#include "sysinfo/block_devices.h"

namespace nasperf::sysinfo {

// Path, kind, file system (type, mount point, options, source, free and total bytes), devices
// (WalkBlockDevices), RAID (raid_info.h; NoRaid() when none) and network path. `target` is a path (directory, file or
// block device; symlinks resolved into "path") or a URL ("smb://host/share"). kind: "directory", "file",
// "block_device", "url", "other", or null when the path cannot be stat()ed (then everything else is unknown or empty).
// A block device has no fs values. network is nullopt unless the target is a URL or on a network file system; then the
// server, the address and local address of the route, and DescribeNic of its interface. Reads only /proc, /sys and the
// target's metadata; needs no privileges.
TargetInventory GatherTarget(const std::string& target);

struct StorageStack {
  std::vector<BlockDevice> devices;
  RaidFacts raid;
};
// The devices under `top` ("MAJ:MIN") and the RAID among them: btrfs `btrfs_uuid` when given
// and multi-device (an md array under a single-profile btrfs is the RAID that counts), else
// the first md array, else NoRaid(). `root` prefixes /sys and /proc.
StorageStack DescribeStack(const std::vector<std::string>& top, const std::optional<std::string>& btrfs_uuid,
                           const std::string& root, const FileDevicesFn& devices_of_file);

// "smb://user:secret@nas/share" -> "smb://user:***@nas/share": URLs are stored with results.
std::string RedactUrl(const std::string& url);

}  // namespace nasperf::sysinfo
