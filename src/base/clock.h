// Monotonic time in nanoseconds (vDSO: no system call on the hot path).
#pragma once

#include <time.h>

#include <cstdint>

namespace nasperf {

inline uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace nasperf

#include <string>

namespace nasperf {

// Now, as UTC ISO 8601 with seconds: "2026-11-30T09:16:22Z".
std::string UtcTimestamp();

}  // namespace nasperf
