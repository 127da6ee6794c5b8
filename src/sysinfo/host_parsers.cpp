// Parsers of os-release, meminfo, cpuinfo and CPU lists: text in, facts out, no file access.
#include "sysinfo/host_parsers.h"

#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

template <typename Fn>
void ForEachLine(std::string_view text, Fn fn) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    fn(text.substr(start, end - start));
    start = end + 1;
  }
}

std::string Unquote(std::string_view value) {
  if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'') {
    return std::string(value.substr(1, value.size() - 2));
  }
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < value.size(); ++i) {
      if (value[i] == '\\' && i + 2 < value.size()) ++i;
      out.push_back(value[i]);
    }
    return out;
  }
  return std::string(value);
}

}  // namespace

std::map<std::string, std::string> ParseOsRelease(std::string_view text) {
  std::map<std::string, std::string> fields;
  ForEachLine(text, [&](std::string_view raw) {
    std::string line = Trim(raw);
    if (line.empty() || line[0] == '#') return;
    size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) return;
    fields[Trim(std::string_view(line).substr(0, eq))] = Unquote(Trim(std::string_view(line).substr(eq + 1)));
  });
  return fields;
}

std::map<std::string, uint64_t> ParseMemInfo(std::string_view text) {
  std::map<std::string, uint64_t> fields;
  ForEachLine(text, [&](std::string_view line) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string rest = Trim(line.substr(colon + 1));
    uint64_t scale = 1;
    if (rest.size() > 3 && rest.compare(rest.size() - 3, 3, " kB") == 0) {
      scale = 1024;
      rest.resize(rest.size() - 3);
    }
    std::optional<int64_t> value = ParseInt(rest);
    if (!value || *value < 0) return;
    fields[Trim(line.substr(0, colon))] = static_cast<uint64_t>(*value) * scale;
  });
  return fields;
}

CpuInfo ParseCpuInfo(std::string_view text) {
  CpuInfo info;
  // Preference order: the first of these keys that appears names the model.
  const char* model_keys[] = {"model name", "cpu model", "Processor"};
  int best_rank = 3;
  ForEachLine(text, [&](std::string_view line) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string key = Trim(line.substr(0, colon));
    std::string value = Trim(line.substr(colon + 1));
    if (key == "processor") ++info.processors;
    for (int rank = 0; rank < best_rank; ++rank) {
      if (key == model_keys[rank] && !value.empty()) {
        info.model = value;
        best_rank = rank;
      }
    }
  });
  return info;
}

std::vector<int> ParseCpuList(std::string_view text) {
  std::vector<int> cpus;
  std::string list = Trim(text);
  if (list.empty()) return cpus;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string_view part = std::string_view(list).substr(start, comma - start);
    start = comma + 1;
    size_t dash = part.find('-');
    std::optional<int64_t> first = ParseInt(part.substr(0, dash));
    std::optional<int64_t> last = dash == std::string_view::npos ? first : ParseInt(part.substr(dash + 1));
    if (!first || !last || *first < 0 || *last < *first || *last > 65535) return {};
    for (int64_t cpu = *first; cpu <= *last; ++cpu) cpus.push_back(static_cast<int>(cpu));
  }
  return cpus;
}

}  // namespace nasperf::sysinfo
