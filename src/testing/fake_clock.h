// A test clock for the runner (base/clock.h): time moves only when the runner sleeps on
// it, by exactly what it asked, up to a limit the test sets, where it stands still (and
// the runner's waits become short real sleeps) until the test moves it on. So a test of
// the runner's own phase logic runs in no wall time and sees exact times.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "base/clock.h"

namespace nasperf::testing {

class FakeClock final : public Clock {
 public:
  // Starts at `start_ns` (the monotonic now by default, so the phase times the runner
  // hands its workers are not in their future), and stops at `limit_ns` after it.
  explicit FakeClock(uint64_t limit_ns = UINT64_MAX, uint64_t start_ns = MonotonicNs())
      : start_ns_(start_ns), now_ns_(start_ns), limit_ns_(limit_ns) {}

  uint64_t NowNs() override { return now_ns_.load(std::memory_order_acquire); }
  void SleepNs(uint64_t ns) override {
    const uint64_t now = NowNs();
    const uint64_t limit = limit_ns_ == UINT64_MAX ? UINT64_MAX : start_ns_ + limit_ns_;
    if (now >= limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return;
    }
    now_ns_.store(std::min(now + ns, limit), std::memory_order_release);
  }
  // Nanoseconds since the start.
  uint64_t ElapsedNs() { return NowNs() - start_ns_; }
  uint64_t start_ns() const { return start_ns_; }

 private:
  const uint64_t start_ns_;
  std::atomic<uint64_t> now_ns_;
  const uint64_t limit_ns_;
};

}  // namespace nasperf::testing
