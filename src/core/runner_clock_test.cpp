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
#include "testing/ready_queue.h"

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
    return testing::TakeReady(queued_, out);
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
// (nothing moved yet), then the last half second, in which the 4 KiB moved, is one too.
TEST(RunnerClock, SamplesComeOnceASecondOfTheRunnersClock) {
  FakeClock clock(3500000000ull);
  std::vector<Sample> seen;
  RunOutcome out = RunGated(OneRead(), clock, 3500000000ull, &seen);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_EQ(out.result.samples.size(), 4u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(out.result.samples[i].t_s, static_cast<double>(i + 1));
    EXPECT_DOUBLE_EQ(out.result.samples[i].read_mb_per_s, 0);
  }
  EXPECT_DOUBLE_EQ(out.result.samples[3].t_s, 3.5);
  EXPECT_DOUBLE_EQ(out.result.samples[3].read_mb_per_s, 4096 / 0.5 / 1e6);
  EXPECT_EQ(seen.size(), 4u) << "every sample reaches on_sample";
  ASSERT_TRUE(out.result.read);
  EXPECT_EQ(out.result.read->ios, 1u);
  EXPECT_DOUBLE_EQ(out.result.read->seconds, 3.5) << "the I/O completed at 3.5 s of the runner's clock";
}

// A last interval under a fifth of a second is too short to be a sample.
TEST(RunnerClock, NoSampleForALastIntervalUnderAFifthOfASecond) {
  FakeClock clock(3100000000ull);
  std::vector<Sample> seen;
  RunOutcome out = RunGated(OneRead(), clock, 3100000000ull, &seen);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_EQ(out.result.samples.size(), 3u);
  EXPECT_DOUBLE_EQ(out.result.samples.back().t_s, 3.0);
}

// No once-a-second sample before the clock has run a second: a 0.999 s run has one
// sample, its whole (last) interval.
TEST(RunnerClock, NoSampleBeforeASecond) {
  FakeClock clock(999000000ull);
  std::vector<Sample> seen;
  RunOutcome out = RunGated(OneRead(), clock, 999000000ull, &seen);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_EQ(out.result.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(out.result.samples[0].t_s, 0.999);
}

// A synchronous engine whose every I/O takes exactly `service_ns` of the fake clock.
class FakeServiceEngine final : public Engine {
 public:
  FakeServiceEngine(FakeClock* clock, uint64_t service_ns) : clock_(clock), service_ns_(service_ns) {}
  const char* name() const override { return "fake-service"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) {
      clock_->AdvanceNs(service_ns_);
      ready_.push_back({r.slot, static_cast<int64_t>(r.length)});
    }
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) override {
    size_t n = std::min(out.size(), ready_.size());
    for (size_t i = 0; i < n; ++i) {
      out[i] = ready_.front();
      ready_.pop_front();
    }
    return n;
  }
  Status sync() override { return Status::Ok(); }
  void close() override {}

 private:
  FakeClock* clock_;
  uint64_t service_ns_;
  std::deque<IoCompletion> ready_;
};

// A 1 s ramp and a 2 s run of I/Os that take exactly 1 ms each, on a clock only the
// engine moves: I/O k completes at k ms. The completions at 1000 ms up to the one at the
// deadline (3000 ms) are measured, every latency is 1 ms, and the measured time is 2 s —
// all decided on the runner's clock, in no wall time.
TEST(RunnerClock, RampDeadlineAndLatencyAreOnTheRunnersClock) {
  FakeClock clock(0);
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  ASSERT_TRUE(target.ok());
  RunHooks hooks = testing::EngineHooks([&clock] { return new FakeServiceEngine(&clock, 1000000); });
  hooks.clock = &clock;
  JobSpec job;
  job.bs = 4096;
  job.size = 1 << 20;
  job.time_based = true;
  job.ramp_s = 1;
  job.time_s = 2;
  RunOutcome out = RunJob(job, *target.value(), {}, hooks);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read);
  EXPECT_EQ(out.result.read->ios, 2001u);
  EXPECT_DOUBLE_EQ(out.result.read->seconds, 2.0);
  EXPECT_NEAR(out.result.read->lat.p50_us, 1000, 1000 * 0.01);  // the histogram's bucket width
  EXPECT_NEAR(out.result.read->lat.max_us, 1000, 1000 * 0.01);
  EXPECT_EQ(clock.ElapsedNs(), 3000000000ull) << "the run stopped at its deadline";
}

}  // namespace
}  // namespace nasperf
