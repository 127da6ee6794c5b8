// The schedule's rate as PacingFacts reports it: block-size mixes as their mean, think
// time never on it, and the shortfall against it.
#include "core/pacing_facts.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(PacingFacts, MeanIoBytesWeighsTheMixAndTheDirections) {
  JobSpec job;
  job.bs = 4096;
  EXPECT_DOUBLE_EQ(MeanIoBytes(job), 4096);
  job.bs_split = {{4096, 50}, {65536, 50}};
  EXPECT_DOUBLE_EQ(MeanIoBytes(job), (4096 + 65536) / 2.0);
  job.rw = AccessPattern::kRandReadWrite;
  job.read_mix_pct = 75;
  job.bs_write = {{1 << 20, 100}};
  EXPECT_DOUBLE_EQ(MeanIoBytes(job), 0.75 * (4096 + 65536) / 2.0 + 0.25 * (1 << 20));
}

// Think time is a closed loop: what it gives is measured, never scheduled (issue 33: the
// same fio job file scheduled 1,000 IOPS where fio's closed loop gave 818).
TEST(PacingFacts, ScheduledIopsIsTheRateOverEveryThreadAndNeverThinkTime) {
  JobSpec job;
  job.bs = 4096;
  job.threads = 4;
  EXPECT_DOUBLE_EQ(ScheduledIops(job), 0) << "not paced";
  job.pacing.rate_iops = 1000;
  EXPECT_DOUBLE_EQ(ScheduledIops(job), 1000);
  job.pacing.think_s = 0.008;
  job.pacing.burst = 8;
  EXPECT_DOUBLE_EQ(ScheduledIops(job), 1000) << "think time beside a rate leaves the schedule as it is";
  job.pacing.rate_iops = 0;
  EXPECT_DOUBLE_EQ(ScheduledIops(job), 0) << "think time alone schedules nothing";
  // A byte rate: 4.096 MB/s of 4 KiB over 4 threads is 1,000 IOPS in total.
  job.pacing = Pacing{.rate_mb_per_s = 4.096};
  EXPECT_NEAR(ScheduledIops(job), 1000, 1e-9);
}

TEST(PacingFacts, ShortfallIsAgainstTheScheduledRate) {
  JobSpec job;
  job.pacing.rate_iops = 5000;
  DirectionResult read;
  read.ios = 3120;
  read.bytes = 3120 * 4096;
  PacingFacts f = MeasurePacing(job, read, std::nullopt, 1.0, nullptr, nullptr);
  EXPECT_DOUBLE_EQ(f.target_iops, 5000);
  EXPECT_DOUBLE_EQ(f.achieved_iops, 3120);
  EXPECT_NEAR(f.shortfall_pct, 37.6, 1e-9);
  EXPECT_FALSE(f.sustained);
  EXPECT_FALSE(f.read_service) << "no service histogram, no service figures";
  read.ios = 4951;  // 0.98 % short: within 1 %
  f = MeasurePacing(job, read, std::nullopt, 1.0, nullptr, nullptr);
  EXPECT_TRUE(f.sustained);
  read.ios = 4949;
  EXPECT_FALSE(MeasurePacing(job, read, std::nullopt, 1.0, nullptr, nullptr).sustained);
}

// Issue 33: 293,036 IOPS achieved of 200,000 scheduled was printed "sustained"; more than
// 1 % over the schedule is not keeping it either.
TEST(PacingFacts, OverAchievementIsNotSustained) {
  JobSpec job;
  job.pacing.rate_iops = 200000;
  DirectionResult read;
  read.ios = 586072;  // over 2 s
  PacingFacts f = MeasurePacing(job, read, std::nullopt, 2.0, nullptr, nullptr);
  EXPECT_DOUBLE_EQ(f.achieved_iops, 293036);
  EXPECT_DOUBLE_EQ(f.shortfall_pct, 0);
  EXPECT_NEAR(f.excess_pct, 46.518, 1e-9);
  EXPECT_FALSE(f.sustained);
  read.ios = 403000;  // 0.75 % over: within 1 %
  f = MeasurePacing(job, read, std::nullopt, 2.0, nullptr, nullptr);
  EXPECT_TRUE(f.sustained);
  EXPECT_NEAR(f.excess_pct, 0.75, 1e-9);
}

// A window holds each thread's first I/O at its very start: 2 IOPS over 2.6 s is due at
// 0, 0.5 ... 2.5 s, 6 I/Os, 2.31 IOPS. That is the schedule's own edge, not an overshoot;
// a seventh I/O would be.
TEST(PacingFacts, TheWindowsEdgeIsNoOvershoot) {
  JobSpec job;
  job.pacing.rate_iops = 2;
  DirectionResult read;
  read.ios = 6;
  PacingFacts f = MeasurePacing(job, read, std::nullopt, 2.6, nullptr, nullptr);
  EXPECT_GT(f.excess_pct, 15);
  EXPECT_TRUE(f.sustained);
  read.ios = 8;
  EXPECT_FALSE(MeasurePacing(job, read, std::nullopt, 2.6, nullptr, nullptr).sustained);
}

}  // namespace
}  // namespace nasperf
