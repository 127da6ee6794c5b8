// Test engines whose truth is known, so tests can check the runner's MB/s, IOPS and
// latency against it: FixedServiceEngine takes a fixed time per I/O, one at a time (a
// synchronous engine, like psync); RateEngine serves queued I/Os one after another at a
// fixed byte rate (asynchronous, one server queue, like a disk at its media rate).
// Both sleep until an absolute CLOCK_MONOTONIC time, so no I/O ever takes less than its
// truth: a loaded machine can only make I/Os slower, never faster. Test code only.
#pragma once

#include <time.h>

#include <algorithm>
#include <deque>
#include <memory>

#include "core/runner.h"
#include "nasperf/engine.h"
#include "base/clock.h"
#include "testing/ready_queue.h"

namespace nasperf::testing {

inline void SleepUntilNs(uint64_t deadline_ns) {
  timespec ts{static_cast<time_t>(deadline_ns / 1000000000ull), static_cast<long>(deadline_ns % 1000000000ull)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

// Every I/O completes inside submit(), `service_us` after submit() began it. The first
// `slow_ios` I/Os (counted from the engine's first) take `slow_us` instead: a ramp
// that must be left out of the results.
class FixedServiceEngine final : public Engine {
 public:
  explicit FixedServiceEngine(uint64_t service_us, uint64_t slow_ios = 0, uint64_t slow_us = 0)
      : service_ns_(service_us * 1000), slow_ios_(slow_ios), slow_ns_(slow_us * 1000) {}
  const char* name() const override { return "fixed-service"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) {
      SleepUntilNs(MonotonicNs() + (done_ < slow_ios_ ? slow_ns_ : service_ns_));
      ++done_;
      ready_.push_back({r.slot, static_cast<int64_t>(r.length)});
    }
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) override {
    return testing::TakeReady(ready_, out);
  }
  Status sync() override { return Status::Ok(); }
  void close() override {}

 private:
  uint64_t service_ns_, slow_ios_, slow_ns_;
  uint64_t done_ = 0;
  std::deque<IoCompletion> ready_;
};

// One server that moves `bytes_per_s`: an I/O starts when the one before it ends (or
// when it is submitted, if the server is idle) and takes length / rate.
class RateEngine final : public Engine {
 public:
  explicit RateEngine(double bytes_per_s) : bytes_per_s_(bytes_per_s) {}
  const char* name() const override { return "rate"; }
  EngineCaps caps() const override { return {.asynchronous = true, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    const uint64_t now = MonotonicNs();
    for (const IoRequest& r : requests) {
      busy_until_ns_ = std::max(busy_until_ns_, now) + static_cast<uint64_t>(r.length / bytes_per_s_ * 1e9);
      queued_.push_back({busy_until_ns_, {r.slot, static_cast<int64_t>(r.length)}});
    }
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override {
    const uint64_t give_up_ns = MonotonicNs() + static_cast<uint64_t>(timeout.count()) * 1000;
    size_t n = 0;
    while (n < out.size() && !queued_.empty()) {
      const uint64_t due_ns = queued_.front().done_ns;
      if (due_ns > MonotonicNs()) {
        if (n >= min_complete || due_ns > give_up_ns) break;
        SleepUntilNs(due_ns);
      }
      out[n++] = queued_.front().completion;
      queued_.pop_front();
    }
    return n;
  }
  Status sync() override { return Status::Ok(); }
  void close() override {}

 private:
  struct Queued {
    uint64_t done_ns;
    IoCompletion completion;
  };
  double bytes_per_s_;
  uint64_t busy_until_ns_ = 0;
  std::deque<Queued> queued_;
};

// Hooks whose every engine is made by `make`.
template <typename Make>
RunHooks EngineHooks(Make make) {
  RunHooks hooks;
  hooks.make_engine = [make](const std::string&) -> Result<std::unique_ptr<Engine>> {
    return std::unique_ptr<Engine>(make());
  };
  return hooks;
}

}  // namespace nasperf::testing
