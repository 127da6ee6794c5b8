// The runner's phase logic on a fake clock (testing/fake_clock.h): samples come once a
// second of the runner's clock, counted from the start of measurement, and none before
// it — checked to the nanosecond, in no wall time.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "core/runner.h"
#include "testing/fake_clock.h"
#include "testing/paced_engines.h"
#include "proto/make_target.h"

namespace nasperf {
namespace {

using testing::FakeClock;

// An asynchronous engine whose I/Os complete only once `clock` reads `gate_ns` after its
// start: until then the workers have moved nothing, whatever the machine does.
class GatedEngine final : public Engine {
 public:
  GatedEngine(FakeClock* clock, uint64_t gate_ns) : clock_(clock), gate_ns_(gate_ns) {}
  const char* name() const override { return "gated"; }
  EngineCaps caps() const override { return {.asynchronous = true, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) queued_.push_back({r.slot, static_cast<int64_t>(r.length)});
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) override {
    if (clock_->ElapsedNs() < gate_ns_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return size_t{0};
    }
    size_t n = std::min(out.size(), queued_.size());
    for (size_t i = 0; i < n; ++i) {
      out[i] = queued_.front();
      queued_.pop_front();
    }
    return n;
  }
  Status sync() override { return Status::Ok(); }
  void close() override {}

 private:
  FakeClock* clock_;
  uint64_t gate_ns_;
  std::deque<IoCompletion> queued_;
};

RunOutcome RunGated(const JobSpec& job, FakeClock& clock, uint64_t gate_ns, std::vector<Sample>* seen) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  RunHooks hooks = testing::EngineHooks([&clock, gate_ns] { return new GatedEngine(&clock, gate_ns); });
  hooks.clock = &clock;
  hooks.on_sample = [seen](const Sample& s) { seen->push_back(s); };
  return RunJob(job, *target.value(), {}, hooks);
}

JobSpec OneRead() {
  JobSpec job;
  job.bs = 4096;
  job.size = 4096;
  return job;
}

// The clock stops at 3.5 s, where the one I/O completes: samples at exactly 1, 2 and 3 s
// (nothing moved yet); the poll at 3.5 s is only half a second after the last.
TEST(RunnerClock, SamplesComeOnceASecondOfTheRunnersClock) {
  FakeClock clock(3500000000ull);
  std::vector<Sample> seen;
  RunOutcome out = RunGated(OneRead(), clock, 3500000000ull, &seen);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_EQ(out.result.samples.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(out.result.samples[i].t_s, static_cast<double>(i + 1));
    EXPECT_DOUBLE_EQ(out.result.samples[i].read_mb_per_s, 0);
  }
  EXPECT_EQ(seen.size(), 3u) << "every sample reaches on_sample";
  ASSERT_TRUE(out.result.read);
  EXPECT_EQ(out.result.read->ios, 1u);
}

// No sample before the clock has run a second.
TEST(RunnerClock, NoSampleBeforeASecond) {
  FakeClock clock(999000000ull);
  std::vector<Sample> seen;
  RunOutcome out = RunGated(OneRead(), clock, 999000000ull, &seen);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_TRUE(out.result.samples.empty());
}

}  // namespace
}  // namespace nasperf
