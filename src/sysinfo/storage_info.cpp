// Gathers the target section: resolves a path to its mount, file system and device stack.
#include "sysinfo/storage_info.h"

#include <fcntl.h>
#include <linux/btrfs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>

#include "sysinfo/mount_info.h"
#include "sysinfo/nic_info.h"
#include "sysinfo/raid_info.h"
#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

std::string MajMin(dev_t dev) { return std::to_string(major(dev)) + ":" + std::to_string(minor(dev)); }

// The btrfs fsid of the file system holding `path` (BTRFS_IOC_FS_INFO needs no privileges).
std::optional<std::string> BtrfsFsid(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  btrfs_ioctl_fs_info_args args{};
  int rc = ioctl(fd, BTRFS_IOC_FS_INFO, &args);
  close(fd);
  if (rc != 0) return std::nullopt;
  char text[37];
  const unsigned char* u = args.fsid;
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
                u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  return std::string(text);
}

// The kernel's name of a block device node ("/dev/mapper/vg-lv" -> "dm-0").
std::optional<std::string> DeviceNameOfNode(const std::string& node) {
  struct stat st;
  if (stat(node.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  std::optional<std::string> dir = RealPath("/sys/dev/block/" + MajMin(st.st_rdev));
  if (!dir) return std::nullopt;
  return dir->substr(dir->rfind('/') + 1);
}

std::optional<std::string> BtrfsUuidOf(const MountEntry& mount, const std::string& path) {
  for (const std::string& probe : {path, mount.mount_point}) {
    std::optional<std::string> fsid = BtrfsFsid(probe);
    if (fsid && PathExists("/sys/fs/btrfs/" + *fsid)) return fsid;
  }
  // Fall back to the file system whose member list holds the mount's source device.
  std::optional<std::string> source = DeviceNameOfNode(mount.source);
  if (!source) return std::nullopt;
  for (const std::string& uuid : ListDir("/sys/fs/btrfs")) {
    if (PathExists("/sys/fs/btrfs/" + uuid + "/devices/" + *source)) return uuid;
  }
  return std::nullopt;
}

struct FsDevices {
  std::vector<std::string> top;  // MAJ:MIN
  std::optional<std::string> btrfs_uuid;
};

FsDevices DevicesOfMount(const MountEntry& mount, const std::string& path) {
  FsDevices out;
  std::string majmin = std::to_string(mount.major) + ":" + std::to_string(mount.minor);
  if (mount.fs_type == "btrfs") {
    out.btrfs_uuid = BtrfsUuidOf(mount, path);
    if (out.btrfs_uuid) {
      std::string devices = "/sys/fs/btrfs/" + *out.btrfs_uuid + "/devices/";
      for (const std::string& name : ListDir(devices)) {
        if (std::optional<std::string> dev = ReadFirstLine(devices + name + "/dev")) out.top.push_back(*dev);
      }
      if (!out.top.empty()) return out;
    }
  }
  if (mount.major != 0 && PathExists("/sys/dev/block/" + majmin)) {
    out.top.push_back(majmin);
    return out;
  }
  struct stat st;
  if (!mount.source.empty() && mount.source[0] == '/' && stat(mount.source.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
    out.top.push_back(MajMin(st.st_rdev));
  }
  return out;
}

// Reads the mount table once and answers "which devices hold this file" for the whole walk.
class MountTable {
 public:
  MountTable() {
    if (std::optional<std::string> text = ReadFileText("/proc/self/mountinfo")) mounts_ = ParseMountInfo(*text);
  }
  std::optional<MountEntry> MountOf(const std::string& canonical_path) const {
    return FindMount(mounts_, canonical_path);
  }

  // The loop walk's callback: devices under the file system holding `path`. The walk visits
  // each device once, so loops of loops end.
  std::vector<std::string> DevicesOfFile(const std::string& path) const {
    std::optional<std::string> canonical = RealPath(path);
    if (!canonical) return {};
    std::optional<MountEntry> mount = MountOf(*canonical);
    if (!mount) return {};
    return DevicesOfMount(*mount, *canonical).top;
  }

 private:
  std::vector<MountEntry> mounts_;
};

NetworkPath NetworkSection(const std::string& server) {
  NetworkPath network;
  network.server = server;
  if (std::optional<Route> route = RouteTo(server)) {
    network.address = route->address;
    network.local_address = route->local_address;
    if (route->nic) network.nic = DescribeNic(*route->nic);
  }
  return network;
}

TargetInventory TargetSkeleton(const std::string& path) {
  TargetInventory target;
  target.path = path;
  target.raid = NoRaid();
  return target;
}

}  // namespace

std::string RedactUrl(const std::string& url) {
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return url;
  size_t authority = scheme_end + 3;
  size_t authority_end = url.find('/', authority);
  if (authority_end == std::string::npos) authority_end = url.size();
  size_t at = url.rfind('@', authority_end);
  if (at == std::string::npos || at < authority) return url;
  size_t colon = url.find(':', authority);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

StorageStack DescribeStack(const std::vector<std::string>& top, const std::optional<std::string>& btrfs_uuid,
                           const std::string& root, const FileDevicesFn& devices_of_file) {
  StorageStack stack;
  stack.devices = WalkBlockDevices(top, root, devices_of_file);
  std::optional<RaidFacts> md = MdRaid(stack.devices, root);
  if (btrfs_uuid) {
    RaidFacts btrfs = BtrfsRaid(*btrfs_uuid, root);
    const std::optional<std::string>& level = btrfs.level;
    bool btrfs_redundant = level && *level != "single" && *level != "dup";
    stack.raid = md && !btrfs_redundant ? *md : btrfs;
  } else {
    stack.raid = md ? *md : NoRaid();
  }
  return stack;
}

TargetInventory GatherTarget(const std::string& target) {
  if (std::optional<std::string> host = UrlHost(target)) {
    TargetInventory section = TargetSkeleton(RedactUrl(target));
    section.kind = "url";
    section.network = NetworkSection(*host);
    return section;
  }

  std::optional<std::string> canonical = RealPath(target);
  TargetInventory section = TargetSkeleton(canonical ? *canonical : target);
  struct stat st;
  if (!canonical || stat(canonical->c_str(), &st) != 0) return section;

  MountTable mounts;
  FileDevicesFn devices_of_file = [&mounts](const std::string& path) { return mounts.DevicesOfFile(path); };

  if (S_ISBLK(st.st_mode)) {
    section.kind = "block_device";
    StorageStack stack = DescribeStack({MajMin(st.st_rdev)}, std::nullopt, "", devices_of_file);
    section.devices = std::move(stack.devices);
    section.raid = std::move(stack.raid);
    return section;
  }
  section.kind = S_ISDIR(st.st_mode) ? "directory" : S_ISREG(st.st_mode) ? "file" : "other";

  std::optional<MountEntry> mount = mounts.MountOf(*canonical);
  FsFacts& fs = section.fs;
  struct statvfs space;
  if (statvfs(canonical->c_str(), &space) == 0 && space.f_blocks > 0) {
    uint64_t unit = space.f_frsize ? space.f_frsize : space.f_bsize;
    fs.free_bytes = static_cast<uint64_t>(space.f_bavail) * unit;  // what an unprivileged writer may use
    fs.total_bytes = static_cast<uint64_t>(space.f_blocks) * unit;
  }
  if (!mount) return section;
  fs.type = mount->fs_type;
  fs.mount_point = mount->mount_point;
  fs.mount_options = MergedOptions(*mount);
  fs.source = mount->source;

  if (IsNetworkFsType(mount->fs_type)) {
    std::string options = MergedOptions(*mount);
    if (std::optional<std::string> server = RemoteServerOfMount(mount->fs_type, mount->source, options)) {
      section.network = NetworkSection(*server);
    }
    return section;
  }
  FsDevices fs_devices = DevicesOfMount(*mount, *canonical);
  StorageStack stack = DescribeStack(fs_devices.top, fs_devices.btrfs_uuid, "", devices_of_file);
  section.devices = std::move(stack.devices);
  section.raid = std::move(stack.raid);
  return section;
}

}  // namespace nasperf::sysinfo
