// How a run ends decides whether its closing fsync runs: a normal end (--time's deadline,
// the steady-state rule, a peer's stonewall, each --repeat-until repeat) keeps it inside
// the clock; an abort (a peer's failure) skips it. On a fake clock only the engine moves,
// so no assertion depends on this machine's speed.
#include <gtest/gtest.h>

#include <atomic>
#include <deque>

#include "core/runner.h"
#include "proto/make_target.h"
#include "testing/fake_clock.h"
#include "testing/paced_engines.h"
#include "testing/sync_counting_engine.h"

namespace nasperf {
namespace {

using testing::FakeClock;
using testing::SyncCountingEngine;

JobSpec FsyncedWrites() {
  JobSpec job;
  job.rw = AccessPattern::kWrite;
  job.bs = 4096;
  job.size = 1 << 20;
  job.time_based = true;
  job.time_s = 1e6;  // fake seconds: far beyond where each test's own stop comes
  job.threads = 2;
  job.fsync = true;
  return job;
}

struct Ran {
  RunOutcome outcome;
  int syncs = 0;
};

Ran RunCounting(const JobSpec& job, RunHooks hooks = {}, bool repeated = false) {
  FakeClock clock(0);  // the runner's sleeps never move it: only the engine's I/Os do
  std::atomic<int> syncs{0};
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  RunHooks made = testing::EngineHooks([&clock, &syncs] { return new SyncCountingEngine(&clock, &syncs); });
  hooks.make_engine = made.make_engine;
  hooks.clock = &clock;
  Ran ran;
  ran.outcome = repeated ? RunRepeated(job, *target.value(), {}, hooks) : RunJob(job, *target.value(), {}, hooks);
  ran.syncs = syncs.load();
  return ran;
}

// Issue 19 item 6: the steady-state rule stopped the run through the abort flag, so
// --fsync's sync never ran and the writes were timed as if they were durable.
TEST(RunStop, SteadyStateEndKeepsTheFsyncInsideTheClock) {
  JobSpec job = FsyncedWrites();
  job.steady = SteadyRule{SteadyRule::Metric::kBandwidth, 100, 2};
  Ran ran = RunCounting(job);
  ASSERT_TRUE(ran.outcome.status.ok()) << ran.outcome.status.message();
  ASSERT_TRUE(ran.outcome.result.steady);
  EXPECT_TRUE(ran.outcome.result.steady->reached);
  EXPECT_FALSE(ran.outcome.result.partial);
  EXPECT_EQ(ran.syncs, 2) << "each thread syncs its writes once the steady rule holds";
}

TEST(RunStop, TimeDeadlineKeepsTheFsync) {
  JobSpec job = FsyncedWrites();
  job.time_s = 2;
  Ran ran = RunCounting(job);
  ASSERT_TRUE(ran.outcome.status.ok()) << ran.outcome.status.message();
  EXPECT_EQ(ran.syncs, 2);
}

// The stonewall (another rank finished first) is a normal end; a peer's failure is not.
TEST(RunStop, FinishRequestedFromOutsideKeepsTheFsync) {
  JobSpec job = FsyncedWrites();
  RunHooks hooks;
  hooks.stop_requested = [] { return StopKind::kFinish; };
  Ran ran = RunCounting(job, hooks);
  ASSERT_TRUE(ran.outcome.status.ok()) << ran.outcome.status.message();
  EXPECT_FALSE(ran.outcome.result.partial);
  EXPECT_EQ(ran.syncs, 2);
}

TEST(RunStop, AbortRequestedFromOutsideSkipsTheFsync) {
  JobSpec job = FsyncedWrites();
  RunHooks hooks;
  hooks.stop_requested = [] { return StopKind::kAbort; };
  job.verify = true;
  Ran ran = RunCounting(job, hooks);
  EXPECT_EQ(ran.syncs, 0) << "an aborted run has nothing worth making durable inside the clock";
  EXPECT_EQ(ran.outcome.result.verified_bytes.value_or(0), 0u);
  for (const std::string& note : ran.outcome.result.notes)
    EXPECT_EQ(note.find("verify: read back"), std::string::npos) << "claims a read-back that never ran: " << note;
}

// A finish request that comes after an abort does not undo it.
TEST(RunStop, AbortWinsOverFinish) {
  RunStop stop;
  stop.Abort();
  stop.Finish();
  EXPECT_TRUE(stop.requested());
  EXPECT_TRUE(stop.aborted());
  RunStop finished;
  EXPECT_FALSE(finished.requested());
  finished.Finish();
  EXPECT_TRUE(finished.requested());
  EXPECT_FALSE(finished.aborted());
  finished.Abort();
  EXPECT_TRUE(finished.aborted());
}

// --repeat-until: every repeat is a whole run of its own, fsync included.
TEST(RunStop, EveryRepeatUntilRepeatSyncs) {
  JobSpec job = FsyncedWrites();
  job.time_s = 1;
  job.repeat = 3;
  job.repeat_until_ci_pct = 1e-9;
  Ran ran = RunCounting(job, {}, /*repeated=*/true);
  ASSERT_TRUE(ran.outcome.status.ok()) << ran.outcome.status.message();
  // Two threads share the fake clock, so the repeats' totals differ a little and the
  // interval is met or not after 2 or 3: every repeat that ran synced, whichever.
  ASSERT_GE(ran.outcome.result.repeats.size(), 2u);
  EXPECT_EQ(ran.syncs, static_cast<int>(ran.outcome.result.repeats.size()) * 2);
}

}  // namespace
}  // namespace nasperf
