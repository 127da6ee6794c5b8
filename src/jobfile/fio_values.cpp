// fio's value syntax; see fio_values.h.
#include "jobfile/fio_values.h"

#include <cctype>
#include <limits>

namespace nasperf {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The leading digits of `text` as a number (at most 19 of them) and the rest.
bool SplitWhole(std::string_view text, uint64_t* number, std::string* rest) {
  size_t i = 0;
  uint64_t n = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (i >= 19) return false;  // past what a uint64_t holds for sure
    n = n * 10 + static_cast<uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return false;
  *number = n;
  *rest = Lower(text.substr(i));
  return true;
}

std::optional<uint64_t> Times(uint64_t n, uint64_t factor) {
  if (factor != 0 && n > std::numeric_limits<uint64_t>::max() / factor) return std::nullopt;
  return n * factor;
}

}  // namespace

std::optional<uint64_t> ParseFioSize(std::string_view text) {
  uint64_t n = 0;
  std::string suffix;
  if (!SplitWhole(text, &n, &suffix)) return std::nullopt;
  if (suffix.empty() || suffix == "b") return n;
  const std::string_view prefixes = "kmgtp";
  const size_t power = prefixes.find(suffix[0]);
  if (power == std::string_view::npos) return std::nullopt;
  const std::string unit = suffix.substr(1);
  uint64_t base = 0;
  if (unit.empty() || unit == "b")
    base = 1024;  // kb_base=1024: SI prefixes are binary ...
  else if (unit == "i" || unit == "ib")
    base = 1000;  // ... and IEC ones decimal
  else
    return std::nullopt;
  std::optional<uint64_t> bytes = n;
  for (size_t i = 0; i <= power && bytes; ++i) bytes = Times(*bytes, base);
  return bytes;
}

std::optional<uint64_t> ParseFioTime(std::string_view text, uint64_t bare_unit_us) {
  uint64_t n = 0;
  std::string unit;
  if (!SplitWhole(text, &n, &unit)) return std::nullopt;
  uint64_t factor = 0;
  if (unit.empty())
    factor = bare_unit_us;
  else if (unit == "us" || unit == "usec")
    factor = 1;
  else if (unit == "ms" || unit == "msec")
    factor = 1000;
  else if (unit == "s" || unit == "sec")
    factor = 1000000;
  else if (unit == "m")
    factor = 60000000;
  else if (unit == "h")
    factor = 3600000000;
  else if (unit == "d")
    factor = 86400000000;
  else
    return std::nullopt;
  return Times(n, factor);
}

std::optional<bool> ParseFioBool(std::string_view text) {
  const std::string v = Lower(text);
  if (v.empty() || v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  return std::nullopt;
}

std::optional<uint64_t> ParseFioCount(std::string_view text, uint64_t max) {
  uint64_t n = 0;
  std::string rest;
  if (!SplitWhole(text, &n, &rest) || !rest.empty() || n > max) return std::nullopt;
  return n;
}

FioPerDirection SplitFioPerDirection(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  FioPerDirection out;
  out.read = parts[0];
  out.write = parts.size() > 1 ? parts[1] : parts[0];
  return out;
}

std::string ExactDecimal(uint64_t value, int digits) {
  uint64_t scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  std::string out = std::to_string(value / scale);
  uint64_t frac = value % scale;
  if (frac == 0) return out;
  std::string f = std::to_string(frac);
  f.insert(0, static_cast<size_t>(digits) - f.size(), '0');
  while (!f.empty() && f.back() == '0') f.pop_back();
  return out + "." + f;
}

}  // namespace nasperf
