// Parses /proc/mdstat (drivers/md/md.c, md_seq_show) into arrays.
#include "sysinfo/mdstat.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

std::vector<std::string> Words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

// "sdb1[1](F)" -> name "sdb1", role 1, flags "(F)". False when the word is not a member.
bool ParseMember(const std::string& word, std::string* name, int* role, std::string* flags) {
  size_t open = word.find('[');
  size_t close = word.find(']', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || open == 0 || close == std::string::npos) return false;
  std::optional<int64_t> number = ParseInt(std::string_view(word).substr(open + 1, close - open - 1));
  if (!number) return false;
  *name = word.substr(0, open);
  *role = static_cast<int>(*number);
  *flags = word.substr(close + 1);
  return true;
}

// The size line of an array: "... blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [UU_]".
void ParseSizeLine(const std::vector<std::string>& w, MdArray* array) {
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string& word = w[i];
    // raid4/5/6 print "512k chunk,", raid0 "64k chunks", raid10 "512K chunks".
    bool chunk_word = i + 1 < w.size() && w[i + 1].rfind("chunk", 0) == 0 && w[i + 1].size() <= 7;
    if (chunk_word && word.size() > 1 && (word.back() == 'k' || word.back() == 'K')) {
      if (std::optional<int64_t> kib = ParseInt(std::string_view(word).substr(0, word.size() - 1)); kib && *kib > 0) {
        array->chunk_bytes = static_cast<uint64_t>(*kib) * 1024;
      }
    }
    if (word.size() >= 5 && word.front() == '[' && word.back() == ']') {
      size_t slash = word.find('/');
      if (slash == std::string::npos) continue;
      std::optional<int64_t> wanted = ParseInt(std::string_view(word).substr(1, slash - 1));
      std::optional<int64_t> working = ParseInt(std::string_view(word).substr(slash + 1, word.size() - slash - 2));
      if (wanted && working) {
        array->devices_wanted = static_cast<int>(*wanted);
        array->devices_working = static_cast<int>(*working);
      }
    }
  }
}

}  // namespace

std::vector<MdArray> ParseMdstat(std::string_view text) {
  std::vector<MdArray> arrays;
  bool expect_size_line = false;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    std::vector<std::string> w = Words(line);
    if (w.empty()) {
      expect_size_line = false;
      continue;
    }
    // "md0 : active raid1 sdb1[1] sda1[0]"
    if (w.size() >= 3 && w[1] == ":" && w[0].rfind("md", 0) == 0 && (w[2] == "active" || w[2] == "inactive")) {
      MdArray array;
      array.name = w[0];
      array.state = w[2];
      size_t i = 3;
      while (i < w.size() && w[i].front() == '(') ++i;  // "(read-only)", "(auto-read-only)"
      if (i < w.size() && w[i].find('[') == std::string::npos) array.level = w[i++];
      std::vector<std::pair<int, std::string>> by_role;
      for (; i < w.size(); ++i) {
        std::string name, flags;
        int role = 0;
        if (!ParseMember(w[i], &name, &role, &flags)) continue;
        by_role.emplace_back(role, name);
        if (flags.find("(F)") != std::string::npos) array.failed.push_back(name);
        if (flags.find("(S)") != std::string::npos) array.spares.push_back(name);
      }
      std::stable_sort(by_role.begin(), by_role.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& [role, name] : by_role) array.members.push_back(std::move(name));
      arrays.push_back(std::move(array));
      expect_size_line = true;
      continue;
    }
    if (expect_size_line && !arrays.empty()) {
      if (std::find(w.begin(), w.end(), "blocks") != w.end()) ParseSizeLine(w, &arrays.back());
      expect_size_line = false;
    }
  }
  return arrays;
}

}  // namespace nasperf::sysinfo
