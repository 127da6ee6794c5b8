// Tolerant file reads for the inventory: every failure becomes nullopt or an empty list.
#include "sysinfo/sysfs_read.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace nasperf::sysinfo {

namespace {
constexpr size_t kMaxFileBytes = 4u << 20;
}

std::optional<std::string> ReadFileText(const std::string& path) {
  FILE* file = std::fopen(path.c_str(), "re");
  if (file == nullptr) return std::nullopt;
  std::string text;
  char chunk[4096];
  bool failed = false;
  while (text.size() < kMaxFileBytes) {
    size_t n = std::fread(chunk, 1, sizeof chunk, file);
    text.append(chunk, n);
    if (n < sizeof chunk) {
      failed = std::ferror(file) != 0;
      break;
    }
  }
  std::fclose(file);
  if (failed) return std::nullopt;
  return text;
}

std::string Trim(std::string_view text) {
  const char* space = " \t\r\n\v\f";
  size_t begin = text.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(space);
  return std::string(text.substr(begin, end - begin + 1));
}

std::optional<std::string> ReadFirstLine(const std::string& path) {
  std::optional<std::string> text = ReadFileText(path);
  if (!text) return std::nullopt;
  std::string line = Trim(std::string_view(*text).substr(0, text->find('\n')));
  if (line.empty()) return std::nullopt;
  return line;
}

std::optional<int64_t> ParseInt(std::string_view text) {
  std::string trimmed = Trim(text);
  if (trimmed.empty()) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
  if (ec != std::errc() || end != trimmed.data() + trimmed.size()) return std::nullopt;
  return value;
}

std::optional<int64_t> ReadInt(const std::string& path) {
  std::optional<std::string> line = ReadFirstLine(path);
  if (!line) return std::nullopt;
  return ParseInt(*line);
}

std::vector<std::string> ListDir(const std::string& path) {
  std::vector<std::string> names;
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) return names;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> LinkBaseName(const std::string& path) {
  char buffer[PATH_MAX];
  ssize_t n = readlink(path.c_str(), buffer, sizeof buffer - 1);
  if (n <= 0) return std::nullopt;
  std::string target(buffer, static_cast<size_t>(n));
  while (target.size() > 1 && target.back() == '/') target.pop_back();
  size_t slash = target.rfind('/');
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  if (base.empty()) return std::nullopt;
  return base;
}

std::optional<std::string> RealPath(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return std::nullopt;
  std::string out = resolved;
  free(resolved);
  return out;
}

bool PathExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace nasperf::sysinfo
