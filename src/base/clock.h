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

// The clock the runner decides its phases by: when the clock starts, when the ramp ends
// and the deadline falls, when a sample is due, how long the run took, and the wait
// between its looks at the workers. Tests pass a fake one (testing/fake_clock.h). The
// workers still time each I/O with MonotonicNs() directly (a virtual call there would
// cost on the hot path) and compare those reads with the phase times the runner hands
// them, so a clock for a real run counts CLOCK_MONOTONIC nanoseconds.
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
