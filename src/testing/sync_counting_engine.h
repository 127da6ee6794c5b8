// A test engine on a fake clock: every I/O takes 1 ms of it (so a run's phases and its
// steady-state figures are exact), and it counts the syncs the worker asks of it — for
// tests of how a run's end decides whether its closing fsync runs. Test code.
#pragma once

#include <algorithm>
#include <atomic>
#include <deque>

#include "nasperf/engine.h"
#include "testing/fake_clock.h"
#include "testing/ready_queue.h"

namespace nasperf::testing {

// Synchronous; completes each I/O in full.
class SyncCountingEngine final : public Engine {
 public:
  SyncCountingEngine(FakeClock* clock, std::atomic<int>* syncs) : clock_(clock), syncs_(syncs) {}
  const char* name() const override { return "sync-counting"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) {
      clock_->AdvanceNs(1000000);
      ready_.push_back({r.slot, static_cast<int64_t>(r.length)});
    }
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) override {
    return testing::TakeReady(ready_, out);
  }
  Status sync() override {
    syncs_->fetch_add(1);
    return Status::Ok();
  }
  void close() override {}

 private:
  FakeClock* clock_;
  std::atomic<int>* syncs_;
  std::deque<IoCompletion> ready_;
};

}  // namespace nasperf::testing
