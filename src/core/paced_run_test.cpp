// Paced runs on a clock only the worker and the engine move (testing/worker_clock.h), so
// every intended start, submit and completion is exact and 10 fake seconds take no wall
// time: a stall shows in latency from the intended start and not in service time, the
// achieved rate is within 1 % of the target, and a target too slow for the rate is
// reported with its shortfall.
#include <gtest/gtest.h>

#include <deque>

#include "core/runner.h"
#include "proto/make_target.h"
#include "stats/histogram.h"
#include "testing/paced_engines.h"
#include "testing/worker_clock.h"
#include "testing/ready_queue.h"

namespace nasperf {
namespace {

using testing::WorkerDrivenClock;

// A synchronous engine whose every I/O takes `service_ns` of the fake clock, but for I/O
// number `stall_at` (0-based, counted from the first), which takes `stall_ns`.
class StallingEngine final : public Engine {
 public:
  StallingEngine(WorkerDrivenClock* clock, uint64_t service_ns, uint64_t stall_at = UINT64_MAX, uint64_t stall_ns = 0)
      : clock_(clock), service_ns_(service_ns), stall_at_(stall_at), stall_ns_(stall_ns) {}
  const char* name() const override { return "stalling"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) {
      clock_->AdvanceNs(done_++ == stall_at_ ? stall_ns_ : service_ns_);
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
  WorkerDrivenClock* clock_;
  uint64_t service_ns_, stall_at_, stall_ns_;
  uint64_t done_ = 0;
  std::deque<IoCompletion> ready_;
};

// An asynchronous engine (queue depth > 1) whose every I/O completes `service_ns` of fake
// time after its submit, in parallel with the others in flight. reap() waits, on the fake
// clock, for the first completion or the timeout, whichever comes first, like io_uring's.
class AsyncServiceEngine final : public Engine {
 public:
  AsyncServiceEngine(WorkerDrivenClock* clock, uint64_t service_ns) : clock_(clock), service_ns_(service_ns) {}
  const char* name() const override { return "async-service"; }
  EngineCaps caps() const override { return {.asynchronous = true, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests)
      queued_.push_back({clock_->NowNs() + service_ns_, {r.slot, static_cast<int64_t>(r.length)}});
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds timeout) override {
    if (queued_.empty()) return size_t{0};
    const uint64_t now = clock_->NowNs();
    const uint64_t wake = std::min<uint64_t>(queued_.front().done_ns, now + timeout.count() * 1000);
    if (wake > now) clock_->AdvanceNs(wake - now);
    size_t n = 0;
    while (n < out.size() && !queued_.empty() && queued_.front().done_ns <= clock_->NowNs()) {
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
  WorkerDrivenClock* clock_;
  uint64_t service_ns_;
  std::deque<Queued> queued_;
};

JobSpec PacedJob(double rate_iops, double time_s) {
  JobSpec job;
  job.rw = AccessPattern::kRandRead;
  job.bs = 4096;
  job.size = 1 << 20;
  job.time_based = true;
  job.time_s = time_s;
  job.pacing.rate_iops = rate_iops;
  return job;
}

RunOutcome RunPaced(const JobSpec& job, WorkerDrivenClock& clock, uint64_t service_ns, uint64_t stall_at = UINT64_MAX,
                    uint64_t stall_ns = 0) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  RunHooks hooks = testing::EngineHooks(
      [&clock, service_ns, stall_at, stall_ns] { return new StallingEngine(&clock, service_ns, stall_at, stall_ns); });
  hooks.clock = &clock;
  return RunJob(job, *target.value(), {}, hooks);
}

// The same on AsyncServiceEngine: every I/O `service_ns`, in parallel up to the depth.
RunOutcome RunAsyncPaced(const JobSpec& job, WorkerDrivenClock& clock, uint64_t service_ns) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  RunHooks hooks = testing::EngineHooks([&clock, service_ns] { return new AsyncServiceEngine(&clock, service_ns); });
  hooks.clock = &clock;
  return RunJob(job, *target.value(), {}, hooks);
}

// 1,000 IOPS for 1 s, 500 us per I/O, and I/O 400 stalls 10 ms: the 19 I/Os due during
// the stall queue behind it and catch up 0.5 ms each (latencies 10, 9.5 ... 1 ms), so the
// 11th worst of ~1,000 latencies from the intended start is 5 ms and p99 is there; the
// service time of every I/O but one stays 500 us. Timed from the submit, as a closed loop
// would, p99 would show nothing.
TEST(PacedRun, StallRaisesP99FromIntendedStartNotServiceTime) {
  WorkerDrivenClock clock;
  RunOutcome out = RunPaced(PacedJob(1000, 1), clock, 500'000, 400, 10'000'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read);
  ASSERT_TRUE(out.result.pacing);
  const PacingFacts& p = *out.result.pacing;
  ASSERT_TRUE(p.read_service);
  EXPECT_GE(out.result.read->lat.p99_us, 4500) << "p99 from the intended start must show the queueing";
  EXPECT_NEAR(out.result.read->lat.max_us, 10000, 10000 * 0.01) << "the stalled I/O itself, started on time";
  EXPECT_NEAR(p.read_service->p99_us, 500, 500 * 0.01) << "service time stays the engine's";
  EXPECT_NEAR(p.read_service->max_us, 10000, 10000 * 0.01) << "one I/O was itself 10 ms";
  ASSERT_TRUE(p.read_service_histogram);
  EXPECT_EQ(p.read_service_histogram->count(), out.result.read->ios);
  EXPECT_TRUE(p.sustained) << "the schedule caught up: " << p.achieved_iops << " IOPS";
}

// 1,000 IOPS for 10 s of fake time, 100 us per I/O: within 1 % of the target.
TEST(PacedRun, AchievedRateIsWithinOnePercentOfTheTarget) {
  WorkerDrivenClock clock;
  RunOutcome out = RunPaced(PacedJob(1000, 10), clock, 100'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  const PacingFacts& p = *out.result.pacing;
  EXPECT_DOUBLE_EQ(p.target_iops, 1000);
  EXPECT_NEAR(p.achieved_iops, 1000, 10);
  EXPECT_NEAR(out.result.read->iops, 1000, 10);
  EXPECT_TRUE(p.sustained);
  EXPECT_DOUBLE_EQ(p.shortfall_pct, 0);
  EXPECT_NEAR(out.result.read->lat.p99_us, 100, 1) << "on schedule, latency is the service time";
  EXPECT_GE(clock.ElapsedNs(), 10'000'000'000ull) << "the worker slept the fake seconds out";
}

// The byte rate: 4.096 MB/s of 4 KiB I/Os is 1,000 IOPS.
TEST(PacedRun, ByteRateIsWithinOnePercentOfTheTarget) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(0, 10);
  job.pacing.rate_mb_per_s = 4.096;
  RunOutcome out = RunPaced(job, clock, 100'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.pacing);
  const PacingFacts& p = *out.result.pacing;
  EXPECT_DOUBLE_EQ(p.target_iops, 0) << "paced by bytes, not I/Os";
  EXPECT_NEAR(p.target_mb_per_s, 4.096, 1e-9);
  EXPECT_NEAR(p.achieved_mb_per_s, 4.096, 4.096 * 0.01);
  EXPECT_TRUE(p.sustained);
}

// 5,000 IOPS asked of a target that takes 320 us per I/O (3,125 IOPS at most): not
// sustained, 37.5 % short; the schedule is not reset, so the I/Os wait longer and longer
// behind it and their latency from the intended start says so.
TEST(PacedRun, TargetThatCannotSustainTheRateIsReportedWithItsShortfall) {
  WorkerDrivenClock clock;
  RunOutcome out = RunPaced(PacedJob(5000, 2), clock, 320'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  const PacingFacts& p = *out.result.pacing;
  EXPECT_FALSE(p.sustained);
  EXPECT_NEAR(p.achieved_iops, 3125, 3);
  EXPECT_NEAR(p.shortfall_pct, 37.5, 0.1);
  // After 2 s, 6,250 I/Os were done of the 10,000 due: the last waited 0.75 s.
  EXPECT_GT(out.result.read->lat.max_us, 700'000);
  EXPECT_NEAR(p.read_service->p99_us, 320, 320 * 0.01);
}

// Think time is a closed loop (issue 33: it was an open-loop period, and the same fio job
// file gave 1,000 IOPS where fio gave 818). One I/O of 222 us, then 1 ms of think, at
// queue depth 1: a period of 1.222 ms, 818 IOPS; latency is the service time, from the
// submit, since nothing was scheduled; no target, so nothing "sustained".
TEST(PacedRun, ThinkTimeWaitsAfterEachCompletionAsFioDoes) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(0, 10);
  job.pacing.think_s = 0.001;
  RunOutcome out = RunPaced(job, clock, 222'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  const PacingFacts& p = *out.result.pacing;
  EXPECT_DOUBLE_EQ(p.target_iops, 0);
  EXPECT_DOUBLE_EQ(p.target_mb_per_s, 0);
  EXPECT_NEAR(p.achieved_iops, 1e6 / 1222, 1) << "period = service time + think";
  EXPECT_NEAR(out.result.read->lat.max_us, 222, 3) << "from the submit: no intended start";
  EXPECT_FALSE(p.read_service) << "service time is the latency here: no second row";
}

// Bursts of 4 I/Os of 1 ms each (synchronous), 10 ms of think after each burst: a cycle of
// 14 ms, 285.7 IOPS; the open loop it replaced started a burst every 10 ms (400 IOPS).
TEST(PacedRun, ThinkTimeAfterABurstFollowsItsLastCompletion) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(0, 10);
  job.pacing.think_s = 0.010;
  job.pacing.burst = 4;
  RunOutcome out = RunPaced(job, clock, 1'000'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.pacing);
  EXPECT_NEAR(out.result.pacing->achieved_iops, 4 / 0.014, 1);
  EXPECT_NEAR(out.result.read->lat.max_us, 1000, 10);
}

// At queue depth 4 a burst of 8 I/Os of 2 ms runs 4 at a time: 4 ms of service, all of it
// drained, then 10 ms of think: 8 I/Os per 14 ms, 571 IOPS. Without the drain (the next
// burst issued while the last one's I/Os were in flight) it would be more.
TEST(PacedRun, ThinkTimeWaitsForTheWholeBurstToDrain) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(0, 10);
  job.qd = 4;
  job.pacing.think_s = 0.010;
  job.pacing.burst = 8;
  RunOutcome out = RunAsyncPaced(job, clock, 2'000'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  EXPECT_NEAR(out.result.pacing->achieved_iops, 8 / 0.014, 2);
  EXPECT_NEAR(out.result.read->lat.max_us, 2000, 20) << "no I/O waits behind another at depth 4";
}

// A rate beside think time: the rate stays the open-loop schedule (as in fio, whose
// rate_ign_think is off by default) and a think puts the thread behind it. 1,000 IOPS
// asked, I/Os of 100 us, 5 ms of think after every 2: after the first cycle each is two
// late I/Os back to back (0.2 ms) and the think, 2 I/Os per 5.2 ms, 385 IOPS, and the run
// says it could not sustain the rate rather than claiming the think's rate as its own.
TEST(PacedRun, ThinkTimeBesideARateLeavesTheScheduleOpenLoop) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(1000, 10);
  job.pacing.think_s = 0.005;
  job.pacing.burst = 2;
  RunOutcome out = RunPaced(job, clock, 100'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.pacing);
  const PacingFacts& p = *out.result.pacing;
  EXPECT_DOUBLE_EQ(p.target_iops, 1000);
  EXPECT_TRUE(p.read_service) << "a rate: latency from the intended start, service time beside it";
  EXPECT_FALSE(p.sustained);
  EXPECT_NEAR(p.achieved_iops, 2 / 0.0052, 2);
  EXPECT_GT(out.result.read->lat.max_us, 1e6) << "behind the schedule by seconds at the end";
}

// With I/Os in flight the worker reaps no longer than to the next intended start: at
// queue depth 4, I/Os of 2 ms each keep 1,000 IOPS (two in flight at a time), every one
// on schedule, so latency from the intended start is the service time. One at a time (a
// synchronous engine) the same I/Os could give only 500.
TEST(PacedRun, AsynchronousEngineKeepsTheScheduleWhileReaping) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(1000, 2);
  job.qd = 4;
  RunOutcome out = RunAsyncPaced(job, clock, 2'000'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  EXPECT_NEAR(out.result.pacing->achieved_iops, 1000, 10);
  EXPECT_TRUE(out.result.pacing->sustained);
  EXPECT_NEAR(out.result.read->lat.max_us, 2000, 20) << "no I/O started late";
  EXPECT_NEAR(out.result.pacing->read_service->p50_us, 2000, 20);
}

// Issue 33: 2 IOPS for 3 s is 6 I/Os, due at 0, 0.5 ... 2.5 s. The worker then idles on
// schedule until the deadline, so the window given is 3 s and the rate 6 / 3 = 2.0; ended
// at the last completion (2.5 s) it read 2.4 and said "sustained".
TEST(PacedRun, TimeBasedWindowEndsAtTheDeadlineNotTheLastCompletion) {
  WorkerDrivenClock clock;
  RunOutcome out = RunPaced(PacedJob(2, 3), clock, 100'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  EXPECT_EQ(out.result.read->ios, 6u);
  EXPECT_NEAR(out.result.read->seconds, 3.0, 1e-6) << "the window given, to the deadline";
  EXPECT_NEAR(out.result.pacing->achieved_iops, 2.0, 1e-6);
  EXPECT_NEAR(out.result.read->iops, 2.0, 1e-6);
  EXPECT_TRUE(out.result.pacing->sustained);
  EXPECT_DOUBLE_EQ(out.result.pacing->excess_pct, 0);
}

// A target slow for the first second (5 ms per I/O, 200 IOPS) then fast (100 us). With a
// 1 s ramp at 1,000 IOPS, the ramp ends 800 I/Os behind its schedule; the measured
// schedule starts afresh at the ramp's end, so the 2 s window holds 2,000 I/Os (1,000
// IOPS), not 2,800 issued at once to catch up (1,400 IOPS "achieved" of 1,000, "sustained").
class SlowThenFastEngine final : public Engine {
 public:
  SlowThenFastEngine(WorkerDrivenClock* clock, uint64_t slow_until_ns) : clock_(clock), slow_until_ns_(slow_until_ns) {}
  const char* name() const override { return "slow-then-fast"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams&) override { return Status::Ok(); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) {
      clock_->AdvanceNs(clock_->NowNs() < slow_until_ns_ ? 5'000'000 : 100'000);
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
  WorkerDrivenClock* clock_;
  uint64_t slow_until_ns_;
  std::deque<IoCompletion> ready_;
};

TEST(PacedRun, ScheduleStartsWhenMeasuringStartsNotAtTheRamp) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(1000, 2);
  job.ramp_s = 1;
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  ASSERT_TRUE(target.ok());
  const uint64_t slow_until_ns = clock.NowNs() + 1'000'000'000ull;
  RunHooks hooks = testing::EngineHooks([&clock, slow_until_ns] { return new SlowThenFastEngine(&clock, slow_until_ns); });
  hooks.clock = &clock;
  RunOutcome out = RunJob(job, *target.value(), {}, hooks);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read && out.result.pacing);
  EXPECT_NEAR(out.result.read->seconds, 2.0, 0.001);
  EXPECT_NEAR(static_cast<double>(out.result.read->ios), 2000, 2) << "the ramp's backlog was issued into the window";
  EXPECT_NEAR(out.result.pacing->achieved_iops, 1000, 1000 * 0.01);
  EXPECT_TRUE(out.result.pacing->sustained);
  // The first measured I/O waits for the ramp's last (5 ms); none waits for the backlog
  // (0.8 s behind), and the ramp's own I/Os, due before measuring began, are not counted.
  EXPECT_LT(out.result.read->lat.max_us, 6000);
}

// An unpaced run has no pacing facts, and its latency is from the submit.
TEST(PacedRun, UnpacedRunHasNoPacingFacts) {
  WorkerDrivenClock clock;
  JobSpec job = PacedJob(0, 0);
  job.time_based = false;
  RunOutcome out = RunPaced(job, clock, 100'000);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_FALSE(out.result.pacing);
  ASSERT_TRUE(out.result.read);
  EXPECT_EQ(out.result.read->ios, 256u);
}

}  // namespace
}  // namespace nasperf
