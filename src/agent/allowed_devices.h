// The block devices `agent --allow-device` / `--allow-volume-members` lets clients read
// raw, and the one way the agent opens one: read-only, checked to be that device.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/scoped_fd.h"
#include "nasperf/status.h"
#include "wire/agent_devices.h"

namespace nasperf {

struct AllowedDevice {
  std::string named;  // as the administrator named it ("/dev/disk/by-id/..." or "/dev/sdb")
  std::string path;   // its real path, resolved once at start: what is opened, and what clients name
  std::string name;   // the kernel's name ("sdb")
  dev_t rdev = 0;     // the device number at start; every open must find the same
  uint64_t size_bytes = 0;
  uint32_t logical_block_bytes = 512;
  std::string allowed_by;  // "--allow-device" | "--allow-volume-members"
};

class DeviceAllowList {
 public:
  DeviceAllowList() = default;

  // Every `paths` entry must be a block device (symlinks followed here, once, by the
  // administrator's word); `volume_members` adds the member devices of the volume holding
  // `root` (sysinfo/volume_members.h). BadInput with one line naming the option and the
  // path otherwise, or when --allow-volume-members finds no member device.
  static Result<DeviceAllowList> Make(const std::vector<std::string>& paths, bool volume_members,
                                      const std::string& root);

  // The device a client names, matched as a string against the administrator's name or
  // the real path, never looked up in a file system: a symlink anywhere (in --root, in
  // /tmp) to an allowed device is not that device's name. BadInput naming the path and
  // what is allowed otherwise. Thread-safe (the list never changes after Make).
  Result<const AllowedDevice*> Find(const std::string& client_path) const;

  const std::vector<AllowedDevice>& devices() const { return devices_; }
  std::vector<AgentDevice> ForWire() const;

 private:
  std::vector<AllowedDevice> devices_;
};

// Opens `device` with `flags` (read-only: O_WRONLY and O_RDWR are refused) and O_NOFOLLOW,
// then checks by the descriptor that it is still a block device with the device number it
// had at start. BadInput naming the device when not; the open's own error otherwise.
Result<ScopedFd> OpenAllowedDevice(const AllowedDevice& device, int flags);

// Ok when the descriptor `fd` is the block device `device` (S_ISBLK, same st_rdev).
Status CheckIsAllowedDevice(int fd, const AllowedDevice& device);

}  // namespace nasperf
