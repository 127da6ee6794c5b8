// Size and duration parsing; see units.h for the accepted forms.
#include "base/units.h"

#include <cstdio>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>

namespace nasperf {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "12.5MiB" into 12.5 and "mib"; fails unless the number is plain decimal.
bool SplitNumber(const std::string& text, double* number, std::string* suffix) {
  size_t i = 0;
  bool digits = false, dot = false;
  while (i < text.size()) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
    ++i;
  }
  if (!digits) return false;
  // from_chars, not stod: a number past a double's range (1e400) is a bad size, not an
  // out_of_range exception. Such a number is "absurdly large" to every caller.
  auto [end, ec] = std::from_chars(text.data(), text.data() + i, *number, std::chars_format::fixed);
  if (ec == std::errc::result_out_of_range) {  // too large, or too small (0.000...1): which?
    const size_t whole_end = std::min(text.find('.'), i);
    const bool large = text.find_first_not_of('0') < whole_end;
    *number = large ? std::numeric_limits<double>::infinity() : 0.0;
  } else if (ec != std::errc() || end != text.data() + i) return false;
  *suffix = Lower(std::string_view(text).substr(i));
  while (!suffix->empty() && suffix->front() == ' ') suffix->erase(0, 1);
  return true;
}

}  // namespace

Result<uint64_t> ParseSize(const std::string& text) {
  double number = 0;
  std::string unit;
  if (!SplitNumber(text, &number, &unit))
    return Status::BadInput("'" + text + "' is not a size (examples: 4096, 4k, 1m, 2g, 1MB, 1GiB)");
  double multiplier = 0;
  if (unit.empty() || unit == "b") multiplier = 1;
  else if (unit == "k" || unit == "kib") multiplier = 1024.0;
  else if (unit == "m" || unit == "mib") multiplier = 1024.0 * 1024;
  else if (unit == "g" || unit == "gib") multiplier = 1024.0 * 1024 * 1024;
  else if (unit == "t" || unit == "tib") multiplier = 1024.0 * 1024 * 1024 * 1024;
  else if (unit == "kb") multiplier = 1e3;
  else if (unit == "mb") multiplier = 1e6;
  else if (unit == "gb") multiplier = 1e9;
  else if (unit == "tb") multiplier = 1e12;
  else
    return Status::BadInput("unknown size unit '" + text.substr(text.size() - unit.size()) + "' in '" + text +
                            "' (use k/m/g/t or KiB/MiB/GiB/TiB for binary, KB/MB/GB/TB for decimal)");
  double bytes = number * multiplier;
  if (!(bytes <= 1e18)) return Status::BadInput("size '" + text + "' is absurdly large");
  double whole = std::round(bytes);
  if (std::fabs(bytes - whole) > 1e-6) return Status::BadInput("size '" + text + "' is not a whole number of bytes");
  return static_cast<uint64_t>(whole);
}

Result<double> ParseDuration(const std::string& text) {
  double number = 0;
  std::string unit;
  if (!SplitNumber(text, &number, &unit))
    return Status::BadInput("'" + text + "' is not a duration (examples: 10, 10s, 500ms, 2m)");
  double seconds = 0;
  if (unit.empty() || unit == "s") seconds = number;
  else if (unit == "ms") seconds = number / 1000;
  else if (unit == "m" || unit == "min") seconds = number * 60;
  else if (unit == "h") seconds = number * 3600;
  else return Status::BadInput("unknown time unit in '" + text + "' (use ms, s, m or h)");
  if (!(seconds <= 365.0 * 24 * 3600)) return Status::BadInput("duration '" + text + "' is absurdly long");
  return seconds;
}

std::string FormatSize(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  uint64_t value = bytes;
  while (unit < 5 && value >= 1024 && value % 1024 == 0) {
    value /= 1024;
    ++unit;
  }
  if (value < 1024) return fmt::format("{} {}", value, kUnits[unit]);
  // Not a whole number of any larger unit: one decimal in the largest unit that fits.
  double scaled = static_cast<double>(bytes);
  unit = 0;
  while (unit < 5 && scaled >= 1024) {
    scaled /= 1024;
    ++unit;
  }
  return fmt::format("{:.1f} {}", scaled, kUnits[unit]);
}

std::string FormatApproxSize(uint64_t bytes) {
  constexpr double kMiB = 1024.0 * 1024, kGiB = kMiB * 1024;
  char text[32];
  if (bytes >= (1ull << 30)) std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / kGiB);
  else std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / kMiB);
  return text;
}

}  // namespace nasperf
