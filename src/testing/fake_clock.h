// A test clock for the runner (base/clock.h): time moves only when the runner sleeps on
// it, by exactly what it asked, up to a limit the test sets, where it stands still (and
// the runner's waits become short real sleeps) until the test moves it on — or when a
// test engine advances it by what each of its I/Os takes. The runner hands it to its
// workers, so the ramp, the deadline and every latency are on it too: a test of the
// runner's phase logic runs in no wall time and sees exact times.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "base/clock.h"

namespace nasperf::testing {

class FakeClock final : public Clock {
 public:
  // Starts at `start_ns` and stops at `limit_ns` after it (0: the runner's sleeps never
  // move it; only AdvanceNs does).
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
  // Moves time on by `ns` whatever the limit: for a test engine whose I/Os take fake time.
  void AdvanceNs(uint64_t ns) { now_ns_.fetch_add(ns, std::memory_order_acq_rel); }
  // Nanoseconds since the start.
  uint64_t ElapsedNs() { return NowNs() - start_ns_; }
  uint64_t start_ns() const { return start_ns_; }

 private:
  const uint64_t start_ns_;
  std::atomic<uint64_t> now_ns_;
  const uint64_t limit_ns_;
};

}  // namespace nasperf::testing
