// Tolerant reads of /proc, /sys and /etc: a missing or unreadable file is nullopt, never an exception or a guess.
#pragma once

#include <cstdint>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nasperf::sysinfo {

// The whole file (at most 4 MiB; /proc files report size 0, so it is read to EOF). nullopt when unreadable.
std::optional<std::string> ReadFileText(const std::string& path);
// The first line, whitespace trimmed; nullopt when unreadable or empty.
std::optional<std::string> ReadFirstLine(const std::string& path);
// The first line as a decimal integer; nullopt when unreadable, empty or not a number (sysfs
// attributes such as a link-down NIC's `speed` fail with EINVAL).
std::optional<int64_t> ReadInt(const std::string& path);
// Entry names in a directory, sorted, without "." and ".."; empty when it cannot be listed.
std::vector<std::string> ListDir(const std::string& path);
// The last component of a symlink's target ("../../bus/pci/drivers/e1000e" -> "e1000e").
std::optional<std::string> LinkBaseName(const std::string& path);
// realpath(3); nullopt when the path does not resolve.
std::optional<std::string> RealPath(const std::string& path);
bool PathExists(const std::string& path);

std::string Trim(std::string_view text);
// Parses a whole string as a decimal integer (surrounding whitespace allowed).
std::optional<int64_t> ParseInt(std::string_view text);

// `x` rounded to 1/scale (scale 10: one decimal), for the figures a sample reports. Dividing
// by the power of ten (not multiplying by 0.1) keeps the JSON short: 92.1, not 92.10000000000001.
inline double RoundTo(double x, double scale) { return std::round(x * scale) / scale; }

}  // namespace nasperf::sysinfo
