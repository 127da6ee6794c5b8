// The agent's device allow list: built from the options at start, matched by name, opened read-only.
#include "agent/allowed_devices.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "sysinfo/inventory.h"
#include "sysinfo/volume_members.h"
#include "target/block_device.h"

namespace nasperf {
namespace {

std::string KernelName(dev_t rdev, const std::string& fallback) {
  char buf[PATH_MAX];
  std::string link = "/sys/dev/block/" + std::to_string(major(rdev)) + ":" + std::to_string(minor(rdev));
  ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return fallback.substr(fallback.rfind('/') + 1);
  std::string target(buf, static_cast<size_t>(n));
  return target.substr(target.rfind('/') + 1);
}

Result<AllowedDevice> Describe(const std::string& named, const std::string& option) {
  char real[PATH_MAX];
  if (!::realpath(named.c_str(), real)) return ErrnoStatus(option, named, errno, ErrorKind::kBadInput);
  struct stat st {};
  if (::stat(real, &st) != 0) return ErrnoStatus(option, named, errno, ErrorKind::kBadInput);
  if (!S_ISBLK(st.st_mode)) return Status::BadInput(option + " " + named + ": not a block device");
  Result<BlockDeviceInfo> info = ProbeBlockDevice(real);
  if (!info.ok()) return Status::BadInput(option + " " + named + ": " + info.status().message());
  AllowedDevice d;
  d.named = named;
  d.path = real;
  d.name = KernelName(st.st_rdev, d.path);
  d.rdev = st.st_rdev;
  d.size_bytes = info.value().size_bytes;
  d.logical_block_bytes = info.value().logical_block_bytes;
  d.allowed_by = option;
  return d;
}

}  // namespace

Result<DeviceAllowList> DeviceAllowList::Make(const std::vector<std::string>& paths, bool volume_members,
                                              const std::string& root) {
  DeviceAllowList list;
  auto add = [&list](AllowedDevice d) {
    for (const AllowedDevice& have : list.devices_)
      if (have.rdev == d.rdev) return;  // named twice, or a member named by hand too
    list.devices_.push_back(std::move(d));
  };
  for (const std::string& path : paths) {
    Result<AllowedDevice> d = Describe(path, "--allow-device");
    if (!d.ok()) return d.status();
    add(std::move(d).value());
  }
  if (volume_members) {
    Inventory inventory = GatherInventory(root);
    std::vector<std::string> members =
        inventory.target ? sysinfo::VolumeMembers(*inventory.target) : std::vector<std::string>{};
    if (members.empty())
      return Status::BadInput("--allow-volume-members: the volume holding " + root +
                              " has no member block devices this machine shows (tmpfs, a network file system?); "
                              "name devices with --allow-device");
    for (const std::string& member : members) {
      Result<AllowedDevice> d = Describe("/dev/" + member, "--allow-volume-members");
      if (!d.ok()) return d.status();
      add(std::move(d).value());
    }
  }
  return list;
}

Result<const AllowedDevice*> DeviceAllowList::Find(const std::string& client_path) const {
  for (const AllowedDevice& d : devices_)
    if (client_path == d.path || client_path == d.named) return &d;
  if (devices_.empty())
    return Status::BadInput(
        "device " + client_path +
        ": this agent allows no devices (start it with --allow-device DEV or --allow-volume-members)");
  std::string allowed;
  for (const AllowedDevice& d : devices_) allowed += (allowed.empty() ? "" : ", ") + d.path;
  return Status::BadInput("device " + client_path + " is not allowed on this agent (it allows " + allowed + ")");
}

std::vector<AgentDevice> DeviceAllowList::ForWire() const {
  std::vector<AgentDevice> out;
  for (const AllowedDevice& d : devices_)
    out.push_back({d.path, d.name, d.size_bytes, d.logical_block_bytes, d.allowed_by});
  return out;
}

Status CheckIsAllowedDevice(int fd, const AllowedDevice& device) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return ErrnoStatus("stat", device.path, errno);
  if (!S_ISBLK(st.st_mode) || st.st_rdev != device.rdev)
    return Status::BadInput("device " + device.path + " is no longer the device allowed at the agent's start: refused");
  return Status::Ok();
}

Result<ScopedFd> OpenAllowedDevice(const AllowedDevice& device, int flags) {
  if ((flags & O_ACCMODE) != O_RDONLY)
    return Status::BadInput("device " + device.path + " is read-only on this agent: refused to open it for writing");
  ScopedFd fd(::open(device.path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ELOOP) return Status::BadInput("device " + device.path + " is now a symlink: refused");
    return ErrnoStatus("open", device.path, errno);
  }
  if (Status s = CheckIsAllowedDevice(fd.get(), device); !s.ok()) return s;
  return fd;
}

}  // namespace nasperf
