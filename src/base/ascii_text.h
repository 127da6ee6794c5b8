// Text checks shared by the readers of TOML files (job files, disk specs): toml++ 3.3.0
// reaches __builtin_unreachable on some non-ASCII characters outside a string (the disk
// spec fuzzer found "[sa]\xcb\x97re = zR"), so both refuse such input before it parses.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace nasperf {

// The 1-based line of the first byte at or above 0x80; nullopt when the text is ASCII.
inline std::optional<int64_t> LineOfFirstNonAscii(std::string_view text) {
  int64_t line = 1;
  for (char ch : text) {
    if (ch == '\n') ++line;
    if (static_cast<unsigned char>(ch) >= 0x80) return line;
  }
  return std::nullopt;
}

}  // namespace nasperf
