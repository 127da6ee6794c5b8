// A test clock for paced runs (base/clock.h): time moves only when a worker thread sleeps
// on it (by exactly what it asked: a pacer waiting for its next intended start) or when a
// test engine advances it by what each I/O takes. The runner's own polling sleeps, on the
// thread that made the clock, are short real sleeps that leave it alone, so a paced run
// with one worker thread is exact and takes no wall time for its fake seconds.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "base/clock.h"

namespace nasperf::testing {

class WorkerDrivenClock final : public Clock {
 public:
  explicit WorkerDrivenClock(uint64_t start_ns = 1'000'000'000'000ull)
      : start_ns_(start_ns), now_ns_(start_ns), runner_(std::this_thread::get_id()) {}

  uint64_t NowNs() override { return now_ns_.load(std::memory_order_acquire); }
  void SleepNs(uint64_t ns) override {
    if (std::this_thread::get_id() == runner_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return;
    }
    AdvanceNs(ns);
  }
  void AdvanceNs(uint64_t ns) { now_ns_.fetch_add(ns, std::memory_order_acq_rel); }
  uint64_t ElapsedNs() { return NowNs() - start_ns_; }

 private:
  const uint64_t start_ns_;
  std::atomic<uint64_t> now_ns_;
  const std::thread::id runner_;
};

}  // namespace nasperf::testing
