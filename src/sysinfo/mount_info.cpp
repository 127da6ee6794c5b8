// Parses /proc/self/mountinfo and finds the mount under a path.
#include "sysinfo/mount_info.h"

#include <sys/vfs.h>

#include <sstream>

#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo octal.
std::string Unescape(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      std::string_view digits = field.substr(i + 1, 3);
      bool octal = digits.size() == 3;
      for (char c : digits) octal = octal && c >= '0' && c <= '7';
      if (octal) {
        out.push_back(static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 + (digits[2] - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

std::vector<std::string> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

bool IsUnder(const std::string& path, const std::string& mount_point) {
  if (mount_point == "/") return !path.empty() && path[0] == '/';
  if (path.compare(0, mount_point.size(), mount_point) != 0) return false;
  return path.size() == mount_point.size() || path[mount_point.size()] == '/';
}

}  // namespace

std::vector<MountEntry> ParseMountInfo(std::string_view text) {
  std::vector<MountEntry> mounts;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::vector<std::string> w = SplitWords(text.substr(start, end - start));
    start = end + 1;
    // id parent maj:min root mount_point options [optional...] - type source super_options
    size_t dash = 6;
    while (dash < w.size() && w[dash] != "-") ++dash;
    if (w.size() < 7 || dash + 3 > w.size()) continue;
    MountEntry e;
    size_t colon = w[2].find(':');
    if (colon == std::string::npos) continue;
    std::optional<int64_t> major = ParseInt(std::string_view(w[2]).substr(0, colon));
    std::optional<int64_t> minor = ParseInt(std::string_view(w[2]).substr(colon + 1));
    if (!major || !minor || *major < 0 || *minor < 0) continue;
    e.major = static_cast<uint32_t>(*major);
    e.minor = static_cast<uint32_t>(*minor);
    e.root = Unescape(w[3]);
    e.mount_point = Unescape(w[4]);
    e.mount_options = w[5];
    e.fs_type = Unescape(w[dash + 1]);
    e.source = Unescape(w[dash + 2]);
    e.super_options = dash + 3 < w.size() ? w[dash + 3] : "";
    mounts.push_back(std::move(e));
  }
  return mounts;
}

std::optional<MountEntry> FindMount(const std::vector<MountEntry>& mounts, const std::string& absolute_path) {
  const MountEntry* best = nullptr;
  for (const MountEntry& m : mounts) {
    if (!IsUnder(absolute_path, m.mount_point)) continue;
    if (best == nullptr || m.mount_point.size() >= best->mount_point.size()) best = &m;
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

std::string MergedOptions(const MountEntry& entry) {
  std::vector<std::string> merged;
  for (const std::string& list : {entry.mount_options, entry.super_options}) {
    for (std::string& option : SplitCommas(list)) {
      bool seen = false;
      for (const std::string& m : merged) seen = seen || m == option;
      if (!seen) merged.push_back(std::move(option));
    }
  }
  std::string out;
  for (const std::string& option : merged) out += (out.empty() ? "" : ",") + option;
  return out;
}

std::optional<std::string> OptionValue(const std::string& options, const std::string& key) {
  for (const std::string& option : SplitCommas(options)) {
    if (option.size() > key.size() && option.compare(0, key.size(), key) == 0 && option[key.size()] == '=') {
      return option.substr(key.size() + 1);
    }
  }
  return std::nullopt;
}

bool IsNetworkFileSystem(const std::string& directory, std::string* type) {
  struct statfs fs {};
  if (::statfs(directory.c_str(), &fs) != 0) return false;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x6969: *type = "nfs"; return true;
    case 0xFF534D42: *type = "cifs"; return true;
    case 0xFE534D42: *type = "smb2"; return true;
    case 0x517B: *type = "smb"; return true;
    case 0x65735546: *type = "fuse"; return true;
    default: return false;
  }
}

}  // namespace nasperf::sysinfo
