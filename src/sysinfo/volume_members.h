// The member block devices of the volume a target sits on: what `agent
// --allow-volume-members` lets clients read raw, and what diagnose's member tests read.
#pragma once

#include <string>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf::sysinfo {

// Kernel names ("loop3", "sda1") of the devices that hold `target`'s data, each once, in
// the inventory's order: a RAID's members (md, btrfs), else the file system's own device
// (devices[0], the top of the walk). Device-mapper and md devices among them (LVM,
// dm-linear, dm-crypt, an md array the RAID facts did not name) are replaced by the
// devices under them. A loop device is a member itself: the walk goes on below it to the
// file system holding its image file, which is not part of this volume. Empty when the
// target sits on no block device (tmpfs, a network file system, unknown).
std::vector<std::string> VolumeMembers(const TargetInventory& target);

}  // namespace nasperf::sysinfo
