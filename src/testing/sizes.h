// Binary sizes as the tests spell them (the product parses and prints them in base/units).
#pragma once

#include <cstdint>

namespace nasperf::testing {

inline constexpr uint64_t kKiB = uint64_t{1} << 10;
inline constexpr uint64_t kMiB = uint64_t{1} << 20;
inline constexpr uint64_t kGiB = uint64_t{1} << 30;

}  // namespace nasperf::testing
