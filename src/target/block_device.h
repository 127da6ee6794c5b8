// Block-device targets: their geometry, and the gate that keeps writes off devices holding data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

struct BlockDeviceInfo {
  uint64_t size_bytes = 0;              // BLKGETSIZE64
  uint32_t logical_block_bytes = 512;   // BLKSSZGET: the smallest O_DIRECT I/O size and alignment
  uint32_t physical_block_bytes = 512;  // BLKPBSZGET: smaller writes cost a read-modify-write
};

// True when `path` (symlinks followed) is a block device node; false when it is not or
// cannot be stat()ed.
bool IsBlockDevice(const std::string& path);

// Reads the size and block sizes of the block device at `path`, opened read-only.
// BadInput when `path` is missing or not a block device; Io when an ioctl fails.
Result<BlockDeviceInfo> ProbeBlockDevice(const std::string& path);

// Ok only when writing to the block device `path` can destroy nothing nasperf does not own:
// `allow_destructive` names the same device (by st_rdev, so symlinks and aliases match),
// neither it nor any of its partitions is mounted, used as swap or held by another device
// (md, device-mapper, bcache ...), libblkid finds no file-system, RAID or partition-table
// signature on it, no backup GPT header sits in its last sector, and the kernel grants an exclusive open.
// A refusal is BadInput with one line naming the device and the reason. Unavailable when
// the check itself cannot be made (unreadable /proc or /sys): not knowing is not "safe".
// Checks a moment in time: the caller should open the device with O_EXCL right after.
// Thread-safe; reads /proc, /sys and the device.
// True when the last 512-byte or 4096-byte sector of the device or image open at `fd`
// (`size_bytes` long) starts with the GPT header signature "EFI PART": the backup header,
// which survives when the first MiB (protective MBR, primary header) was wiped, and which
// libblkid does not look for then. Reads two sectors; false when they cannot be read.
bool HasBackupGptHeader(int fd, uint64_t size_bytes);

Status CheckDestructiveWriteAllowed(const std::string& path,
                                    const std::vector<std::string>& allow_destructive);

}  // namespace nasperf
