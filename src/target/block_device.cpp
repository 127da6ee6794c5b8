// Block-device probing and the safety gate in front of every write to a raw device.
#include "target/block_device.h"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>

namespace nasperf {
namespace {

namespace fs = std::filesystem;

// The device and each of its partitions: writing the whole disk destroys them all.
struct Member {
  dev_t dev;
  std::string name;  // for messages: the user's path for the device, the kernel name for a partition
};

std::string DevNumber(dev_t dev) {
  return std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
}

fs::path SysfsDir(dev_t dev) { return fs::path("/sys/dev/block") / DevNumber(dev); }

Status Refuse(const std::string& path, const std::string& reason) {
  return Status::BadInput("refusing to write to " + path + ": " + reason);
}

std::string Subject(const Member& member, bool is_device) {
  return is_device ? "it" : "its partition " + member.name;
}

// /proc/self/mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(const std::string& field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    auto octal = [&](size_t j) { return j < field.size() && field[j] >= '0' && field[j] <= '7'; };
    if (field[i] == '\\' && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
      out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0'));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

bool SameDevice(const std::string& path, dev_t dev) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

Result<std::vector<Member>> ListMembers(const std::string& path, dev_t dev) {
  std::vector<Member> members{{dev, path}};
  std::error_code ec;
  fs::directory_iterator it(SysfsDir(dev), ec);
  if (ec) {
    return Status::Unavailable("cannot check " + path + ": " + SysfsDir(dev).string() + ": " + ec.message());
  }
  for (const fs::directory_entry& entry : it) {
    if (!fs::exists(entry.path() / "partition", ec)) continue;
    unsigned maj = 0, min = 0;
    char colon = 0;
    std::ifstream dev_file(entry.path() / "dev");
    if (dev_file >> maj >> colon >> min && colon == ':') {
      members.push_back({makedev(maj, min), "/dev/" + entry.path().filename().string()});
    }
  }
  return members;
}

// Field 3 is the mounted device's major:minor; btrfs and some others report an anonymous
// 0:N there, so the mount source (after " - " and the fs type) is compared as well.
Status CheckNotMounted(const std::string& path, const std::vector<Member>& members) {
  std::ifstream mountinfo("/proc/self/mountinfo");
  if (!mountinfo) {
    return ErrnoStatus("cannot check mounts of " + path + ": open", "/proc/self/mountinfo", errno,
                       ErrorKind::kUnavailable);
  }
  std::string line;
  while (std::getline(mountinfo, line)) {
    std::istringstream fields(line);
    std::string id, parent, number, root, mount_point, word, fs_type, source;
    fields >> id >> parent >> number >> root >> mount_point;
    while (fields >> word && word != "-") {}
    fields >> fs_type >> source;
    source = Unescape(source);
    struct stat source_st {};
    bool source_is_device = source.starts_with('/') && stat(source.c_str(), &source_st) == 0 &&
                            S_ISBLK(source_st.st_mode);
    for (size_t i = 0; i < members.size(); ++i) {
      bool source_matches = source_is_device && source_st.st_rdev == members[i].dev;
      if (number == DevNumber(members[i].dev) || source_matches) {
        return Refuse(path, Subject(members[i], i == 0) + " is mounted on " + Unescape(mount_point));
      }
    }
  }
  return Status::Ok();
}

// A kernel without swap support has no /proc/swaps, and then nothing can be swap.
Status CheckNotSwap(const std::string& path, const std::vector<Member>& members) {
  std::ifstream swaps("/proc/swaps");
  std::string line;
  std::getline(swaps, line);  // the header
  while (std::getline(swaps, line)) {
    std::string name = Unescape(line.substr(0, line.find_first_of(" \t")));
    for (size_t i = 0; i < members.size(); ++i) {
      if (SameDevice(name, members[i].dev)) {
        return Refuse(path, Subject(members[i], i == 0) + " is in use as swap");
      }
    }
  }
  return Status::Ok();
}

// A holder (md array, device-mapper, bcache ...) builds on this device's blocks, even when
// nothing is mounted and no signature is visible at offset 0.
Status CheckNoHolders(const std::string& path, const std::vector<Member>& members) {
  for (size_t i = 0; i < members.size(); ++i) {
    std::error_code ec;
    fs::directory_iterator it(SysfsDir(members[i].dev) / "holders", ec);
    if (ec) return Status::Unavailable("cannot check holders of " + path + ": " + ec.message());
    for (const fs::directory_entry& holder : it) {
      return Refuse(path, Subject(members[i], i == 0) + " is held by " + holder.path().filename().string() +
                              " (an array, device-mapper or similar device built on it)");
    }
  }
  return Status::Ok();
}

Status CheckNoSignature(const std::string& path) {
  std::unique_ptr<blkid_struct_probe, decltype(&blkid_free_probe)> probe(
      blkid_new_probe_from_filename(path.c_str()), &blkid_free_probe);
  if (!probe) return ErrnoStatus("cannot check signatures: open", path, errno, ErrorKind::kIo);
  blkid_probe_enable_superblocks(probe.get(), 1);
  blkid_probe_set_superblocks_flags(probe.get(), BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
  blkid_probe_enable_partitions(probe.get(), 1);
  int rc = blkid_do_safeprobe(probe.get());
  if (rc == -2) return Refuse(path, "it holds more than one conflicting signature");
  if (rc < 0) return Status::Io("cannot check signatures on " + path + ": libblkid probe failed");
  if (rc == 1) return Status::Ok();  // nothing found

  const char* value = nullptr;
  if (blkid_probe_lookup_value(probe.get(), "PTTYPE", &value, nullptr) == 0) {
    return Refuse(path, std::string("it holds a ") + value + " partition table");
  }
  if (blkid_probe_lookup_value(probe.get(), "TYPE", &value, nullptr) != 0) {
    return Refuse(path, "it holds an unnamed signature");
  }
  std::string what = value;
  if (blkid_probe_lookup_value(probe.get(), "USAGE", &value, nullptr) == 0) {
    std::string usage = value;
    if (usage == "filesystem") what += " file system";
    if (usage == "raid") what += " RAID member";
    if (usage == "crypto") what += " encrypted volume";
  }
  return Refuse(path, "it holds a " + what + " signature");
}

Status CheckNoBackupGpt(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot check for a backup GPT header: open", path, errno, ErrorKind::kIo);
  uint64_t size_bytes = 0;
  bool sized = ioctl(fd, BLKGETSIZE64, &size_bytes) == 0;
  int err = errno;
  bool found = sized && HasBackupGptHeader(fd, size_bytes);
  close(fd);
  if (!sized) return ErrnoStatus("cannot check for a backup GPT header: ioctl BLKGETSIZE64", path, err, ErrorKind::kIo);
  if (found)
    return Refuse(path, "it holds a backup GPT header in its last sector (a partition table whose start was wiped; "
                        "zero its last MiB to reuse it)");
  return Status::Ok();
}

}  // namespace

bool HasBackupGptHeader(int fd, uint64_t size_bytes) {
  for (uint64_t sector : {512u, 4096u}) {
    if (fd < 0 || size_bytes < sector) continue;
    char signature[8] = {};
    if (pread(fd, signature, sizeof signature, static_cast<off_t>(size_bytes - sector)) != sizeof signature) continue;
    if (std::string_view(signature, sizeof signature) == "EFI PART") return true;
  }
  return false;
}

bool IsBlockDevice(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

Result<BlockDeviceInfo> ProbeBlockDevice(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    bool bad_path = err == ENOENT || err == ENOTDIR;
    return ErrnoStatus("open", path, err, bad_path ? ErrorKind::kBadInput : ErrorKind::kIo);
  }
  struct stat st {};
  BlockDeviceInfo info;
  int logical = 0;
  unsigned int physical = 0;
  Status status;
  if (fstat(fd, &st) != 0) {
    status = ErrnoStatus("stat", path, errno);
  } else if (!S_ISBLK(st.st_mode)) {
    status = Status::BadInput(path + " is not a block device");
  } else if (ioctl(fd, BLKGETSIZE64, &info.size_bytes) != 0) {
    status = ErrnoStatus("ioctl BLKGETSIZE64", path, errno);
  } else if (ioctl(fd, BLKSSZGET, &logical) != 0) {
    status = ErrnoStatus("ioctl BLKSSZGET", path, errno);
  } else if (ioctl(fd, BLKPBSZGET, &physical) != 0) {
    status = ErrnoStatus("ioctl BLKPBSZGET", path, errno);
  }
  close(fd);
  if (!status.ok()) return status;
  info.logical_block_bytes = static_cast<uint32_t>(logical);
  info.physical_block_bytes = physical;
  return info;
}

Status CheckDestructiveWriteAllowed(const std::string& path,
                                    const std::vector<std::string>& allow_destructive) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return ErrnoStatus("stat", path, errno, ErrorKind::kBadInput);
  if (!S_ISBLK(st.st_mode)) return Refuse(path, "it is not a block device");

  bool named = false;
  for (const std::string& allowed : allow_destructive) named = named || SameDevice(allowed, st.st_rdev);
  if (!named) {
    return Refuse(path, "read-only jobs only unless --allow-destructive " + path + " names it");
  }

  // Mounts, swap and holders first: they name the user of the device, where a signature
  // alone only hints at one.
  Result<std::vector<Member>> members = ListMembers(path, st.st_rdev);
  if (!members.ok()) return members.status();
  Status status = CheckNotMounted(path, members.value());
  if (status.ok()) status = CheckNotSwap(path, members.value());
  if (status.ok()) status = CheckNoHolders(path, members.value());
  if (status.ok()) status = CheckNoSignature(path);
  if (status.ok()) status = CheckNoBackupGpt(path);
  if (!status.ok()) return status;

  // The kernel refuses O_EXCL while anything else (a mount, md, dm, another O_EXCL opener)
  // claims the device, which covers users the checks above cannot see.
  int fd = open(path.c_str(), O_RDWR | O_EXCL | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == EBUSY) return Refuse(path, "it is in use (the kernel refused an exclusive open)");
    return ErrnoStatus("open for writing", path, err, ErrorKind::kIo);
  }
  close(fd);
  return Status::Ok();
}

}  // namespace nasperf
