// RankRunner on a fake Comm: the stonewall stop ("0" from rank 0) ends a rank's run
// normally, so its closing fsync still runs; a peer's failure ("1why") aborts it (no fsync,
// partial, naming the failure). Every I/O takes 1 ms of a fake clock: no wall time.
#include "cluster/rank_runner.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>

#include "cluster/rank_payload.h"
#include "proto/make_target.h"
#include "testing/fake_clock.h"
#include "testing/fake_comm.h"
#include "testing/sync_counting_engine.h"

namespace nasperf {
namespace {

using testing::FakeClock;
using testing::FakeComm;
using testing::SyncCountingEngine;

struct RankRan {
  RunOutcome outcome;
  int syncs = 0;
  std::vector<RankMessage> results;  // what rank 1 sent rank 0 under kTagResult
};

JobSpec FsyncedWrites(double seconds) {
  JobSpec job;
  job.rw = AccessPattern::kWrite;
  job.bs = 4096;
  job.size = 1 << 20;
  job.time_based = true;
  job.time_s = seconds;
  job.threads = 2;
  job.fsync = true;
  return job;
}

// Rank 1 of 2 on a null target whose every I/O takes 1 ms of a fake clock.
struct RankOne {
  FakeClock clock{0};
  std::atomic<int> syncs{0};
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  LocalRunner inner{*target.value(), "client", [this](const std::string&) -> Result<std::unique_ptr<Engine>> {
                      return std::unique_ptr<Engine>(new SyncCountingEngine(&clock, &syncs));
                    }};
  FakeComm comm{1, 2};
  RankRunner rank{inner, comm, /*stonewall=*/true};

  RunOutcome Run(const JobSpec& job) {
    RunHooks hooks;
    hooks.clock = &clock;
    return rank.Run(job, {}, hooks);
  }
};

// Rank 1 of 2 runs fsynced writes for (fake) days; `stop` from rank 0 is waiting for it,
// and so is rank 0's verdict on the merged run, `verdict`.
RankRan RunRankOne(const std::string& stop, const std::string& verdict = "0") {
  RankOne one;
  one.comm.inbox[kTagStop].push_back({0, stop});
  one.comm.inbox[kTagVerdict].push_back({0, verdict});
  RankRan ran;
  ran.outcome = one.Run(FsyncedWrites(1e6));
  ran.syncs = one.syncs.load();
  ran.results = one.comm.sent[kTagResult];
  return ran;
}

TEST(RankRunner, StonewallStopIsANormalEndThatStillSyncs) {
  RankRan ran = RunRankOne("0");
  EXPECT_TRUE(ran.outcome.status.ok()) << ran.outcome.status.message();
  EXPECT_FALSE(ran.outcome.result.partial) << ran.outcome.result.error;
  EXPECT_EQ(ran.syncs, 2) << "each thread's fsync runs inside the clock after the stonewall";
  ASSERT_EQ(ran.results.size(), 1u);
  Result<RankRun> sent = DecodeRankRun(ran.results[0].bytes);
  ASSERT_TRUE(sent.ok()) << sent.status().message();
  EXPECT_FALSE(sent.value().run.partial);
}

TEST(RankRunner, PeerFailureAbortsWithoutSyncing) {
  RankRan ran = RunRankOne("1rank 0 failed: pwrite: No space left on device",
                           "1rank 0 failed: pwrite: No space left on device");
  EXPECT_TRUE(ran.outcome.result.partial);
  EXPECT_EQ(ran.outcome.result.error, "stopped: rank 0 failed: pwrite: No space left on device");
  EXPECT_EQ(ran.syncs, 0) << "a run a peer's failure ended is aborted: nothing to make durable in the clock";
}

// quick runs eight jobs through one RankRunner: a second stonewall stop of job 1 that
// arrives late must not end job 2 at its start.
TEST(RankRunner, AStopLeftOverFromOneJobDoesNotEndTheNext) {
  RankOne one;
  one.comm.inbox[kTagStop].push_back({0, "0"});
  one.comm.inbox[kTagVerdict].push_back({0, "0"});
  one.comm.inbox[RankTag(kTagVerdict, 1)].push_back({0, "0"});
  RunOutcome first = one.Run(FsyncedWrites(1e6));
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  one.comm.inbox[kTagStop].push_back({0, "0"});  // arrives after job 1 has ended
  RunOutcome second = one.Run(FsyncedWrites(2));
  ASSERT_TRUE(second.status.ok()) << second.status.message();
  ASSERT_TRUE(second.result.write.has_value());
  EXPECT_GE(second.result.write->seconds, 1.9) << "job 2 ran its own 2 s, not stopped by job 1's message";
  EXPECT_EQ(one.comm.sent[RankTag(kTagResult, 1)].size(), 1u) << "job 2's result goes under job 2's tag";
}

TEST(RankRunner, ARankWhoseMergedJobWasNotWholeStopsTheSetThere) {
  RankRan ran = RunRankOne("0", "1rank 3 failed: pread: Input/output error");
  EXPECT_FALSE(ran.outcome.status.ok()) << "rank 1's own job was whole, the merged one was not";
  EXPECT_EQ(ran.outcome.status.message(), "rank 3 failed: pread: Input/output error");
  EXPECT_TRUE(ran.outcome.result.partial);
}

}  // namespace
}  // namespace nasperf
