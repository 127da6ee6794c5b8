// /proc/self/mountinfo as data: which mount holds a path, with its type, source and options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nasperf::sysinfo {

// One line of mountinfo (proc(5)); path fields are unescaped ("\040" -> " ").
struct MountEntry {
  uint32_t major = 0;  // st_dev of the file system; 0 for virtual and btrfs (anonymous) devices
  uint32_t minor = 0;
  std::string root;  // the directory of the file system mounted here ("/" unless a bind mount)
  std::string mount_point;
  std::string mount_options;  // per mount: "rw,relatime"
  std::string fs_type;        // "ext4", "btrfs", "nfs4", "fuse.sshfs"
  std::string source;         // "/dev/sda1", "server:/export", "tmpfs"
  std::string super_options;  // per file system: "rw,discard"
};

// Every well-formed line, in file order; malformed lines are skipped.
// The file system at `directory` is a network one (the kernel's NFS, SMB/CIFS or FUSE
// clients, by statfs magic): its server caches too, and dropping this machine's cache
// does not empty the server's. `type` gets the kernel's name for it.
bool IsNetworkFileSystem(const std::string& directory, std::string* type);

std::vector<MountEntry> ParseMountInfo(std::string_view text);

// The mount that holds `absolute_path` (already canonical): the longest mount point that is the
// path or a parent of it; among equal mount points the last one, which covers the others.
std::optional<MountEntry> FindMount(const std::vector<MountEntry>& mounts, const std::string& absolute_path);

// Mount options then super options, each once, in order: what /proc/mounts shows.
std::string MergedOptions(const MountEntry& entry);

// The value of "key=value" in a comma-separated option list, nullopt when absent.
std::optional<std::string> OptionValue(const std::string& options, const std::string& key);

}  // namespace nasperf::sysinfo
