// Block devices from sysfs: each device's facts, and the walk from a file system's devices down to the disks.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf::sysinfo {

// "none [mq-deadline] kyber bfq" -> "mq-deadline"; a lone "none" -> "none"; nullopt when empty.
std::optional<std::string> ParseScheduler(std::string_view text);

// libata's sata_spd ("3.0 Gbps") -> "SATA 3.0 Gbit/s"; nullopt for "<unknown>" (no link) or
// anything else. Pure.
std::optional<std::string> ParseSataSpeed(std::string_view text);

// The devices ("MAJ:MIN") under the file system that holds `path`: how the walk continues
// below a loop device, whose backing file lives on some other file system.
using FileDevicesFn = std::function<std::vector<std::string>(const std::string& path)>;

// Every block device from `top` ("MAJ:MIN", e.g. "7:0") down to the disks, each once, top
// first then breadth first: a partition leads to its disk, a loop device to the devices of its
// backing file (through `devices_of_file`, which may be empty), dm-* and md* to their slaves/.
// Each device: its name, kind ("disk", "partition", "loop", "dm", "md"), model, size,
// rotational, scheduler, logical and physical block size, backing_file (loop; unknown
// otherwise) and slaves (names of the devices it sits on). A partition reports
// its disk's queue (rotational, scheduler, block sizes) and model, which it shares. Disks
// and partitions also get their storage controller's driver and SATA link speed (see
// BlockDevice::controller_driver); loop devices the driver "loop".
// `root` prefixes /sys ("" is the real system). Unknown facts are null; needs no privileges.
std::vector<BlockDevice> WalkBlockDevices(const std::vector<std::string>& top, const std::string& root,
                                          const FileDevicesFn& devices_of_file);

}  // namespace nasperf::sysinfo
