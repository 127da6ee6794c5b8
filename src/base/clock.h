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

// The same clock in milliseconds (what a rank's start and finish are stamped with).
inline int64_t MonotonicMs() { return static_cast<int64_t>(MonotonicNs() / 1000000); }

}  // namespace nasperf

#include <string>

namespace nasperf {

// The clock a run is timed by: when the clock starts, when the ramp ends and the deadline
// falls, when a sample is due, how long the run took, and every I/O's latency. Tests pass
// a fake one (testing/fake_clock.h) and the runner hands it to its workers; a real run's
// workers read MonotonicNs() inline instead of calling through this interface (a virtual
// call per I/O would cost on the hot path), so a clock for a real run counts
// CLOCK_MONOTONIC nanoseconds.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual uint64_t NowNs() = 0;
  virtual void SleepNs(uint64_t ns) = 0;
};

// MonotonicNs() and a real sleep.
Clock& MonotonicClock();

// Now, as UTC ISO 8601 with seconds: "2026-11-30T09:16:22Z".
std::string UtcTimestamp();

}  // namespace nasperf
