// fio's value syntax, as its man page (fio 3.33) defines it for job files: sizes with
// k/m/g/t/p suffixes, times with units, booleans, and values that differ per direction
// ("8k,32k": reads, then writes and trims). nullopt or an empty result means "not this".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nasperf {

// A size in bytes, with fio's default kb_base=1024: k, kb, m, mb ... are powers of 2
// ("4k" = 4096) and, by fio's compatibility rule, ki, kib, mi, mib ... powers of 10
// ("1mi" = 1000000). Case does not matter; a whole number only (no fractions,
// expressions, percentages or ranges).
std::optional<uint64_t> ParseFioSize(std::string_view text);

// A time in microseconds. A bare number is in `bare_unit_us` (1000000 for runtime,
// 1 for thinktime); d, h, m, s/sec, ms/msec, us/usec as fio reads them.
std::optional<uint64_t> ParseFioTime(std::string_view text, uint64_t bare_unit_us);

// fio's booleans: 1/0, true/false; a key given without a value is on.
std::optional<bool> ParseFioBool(std::string_view text);

// A whole number without suffix, at most `max`.
std::optional<uint64_t> ParseFioCount(std::string_view text, uint64_t max);

// A value given per direction ("bs=8k,32k", "rate=,1m"): the read and the write entry.
// A value not ending in a comma applies to the directions after it; an empty entry is
// fio's default (returned empty). The trim entry is not kept: nasperf does no trims.
struct FioPerDirection {
  std::string read, write;
};
FioPerDirection SplitFioPerDirection(std::string_view text);

// value / 10^digits as exact decimal text: (1500000, 6) -> "1.5", (10, 0) -> "10".
std::string ExactDecimal(uint64_t value, int digits);

}  // namespace nasperf
