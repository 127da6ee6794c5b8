// Pure parsers of the host's text files: /etc/os-release, /proc/meminfo, /proc/cpuinfo, CPU lists.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nasperf::sysinfo {

// os-release(5): KEY=value lines, values unquoted ("..." with \-escapes, '...'); comments skipped.
std::map<std::string, std::string> ParseOsRelease(std::string_view text);

// /proc/meminfo in bytes: "MemTotal:  16303324 kB" -> {"MemTotal", 16694603776}.
std::map<std::string, uint64_t> ParseMemInfo(std::string_view text);

struct CpuInfo {
  std::optional<std::string> model;  // "model name" (x86), "cpu model" (MIPS) or "Processor" (older ARM)
  int processors = 0;                // "processor" entries
};
CpuInfo ParseCpuInfo(std::string_view text);

// A kernel CPU list ("0-3,8,10-11") as CPU numbers; empty when malformed.
std::vector<int> ParseCpuList(std::string_view text);

}  // namespace nasperf::sysinfo
