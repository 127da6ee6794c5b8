// The runner's figures against engines whose truth is known (testing/paced_engines.h).
// A paced I/O never takes less than its truth, and a loaded machine only adds time, so
// each bound is one-sided where the machine is noisy and tight where the truth is hard:
// IOPS can never exceed what the engine allows, latency never fall below its service
// time, and Little's law (I/Os in flight = IOPS x mean latency) holds on any machine.
// A factor-of-2 error in seconds, bytes, counts or latency units breaks one of them.
#include <gtest/gtest.h>

#include "core/runner.h"
#include "proto/make_target.h"
#include "stats/histogram.h"
#include "testing/paced_engines.h"

namespace nasperf {
namespace {

using testing::EngineHooks;
using testing::FixedServiceEngine;
using testing::RateEngine;

RunOutcome RunOnNull(const JobSpec& job, const RunHooks& hooks) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  return RunJob(job, *target.value(), {}, hooks);
}

JobSpec TimedReads(uint64_t bs, uint32_t qd, double time_s, double ramp_s = 0) {
  JobSpec job;
  job.rw = AccessPattern::kRandRead;
  job.bs = bs;
  job.qd = qd;
  job.size = 64 << 20;
  job.time_based = true;
  job.time_s = time_s;
  job.ramp_s = ramp_s;
  return job;
}

// Qd 1 at 200 us per I/O: at most 5000 IOPS, every latency at least 200 us.
TEST(GroundTruth, FixedServiceTimeGivesItsIopsAndLatency) {
  RunOutcome out = RunOnNull(TimedReads(4096, 1, 0.5), EngineHooks([] { return new FixedServiceEngine(200); }));
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read);
  const DirectionResult& d = *out.result.read;
  // Truth: 5000 IOPS, 20.48 MB/s, 200 us. The upper bounds are hard (nothing can be faster
  // than the engine, 1 % for the clock's granularity); the lower ones leave a loaded
  // machine room for twice the time.
  EXPECT_LE(d.iops, 5050);
  EXPECT_GE(d.iops, 2500);
  EXPECT_LE(d.mb_per_s, 5050 * 4096 / 1e6);
  EXPECT_GE(d.mb_per_s, 2500 * 4096 / 1e6);
  EXPECT_GE(d.lat.mean_us, 199);  // 0.4 %: the histogram's resolution
  EXPECT_LE(d.lat.mean_us, 400);
  EXPECT_GE(d.lat.p50_us, 199);
  EXPECT_LE(d.lat.p50_us, 400);
  EXPECT_GE(d.lat.p99_us, d.lat.p50_us);
  EXPECT_GE(d.lat.max_us, d.lat.p99_us);
  // Little's law at qd 1: the one slot is busy nearly all the time, never more.
  const double in_flight = d.iops * d.lat.mean_us / 1e6;
  EXPECT_LE(in_flight, 1.01);
  EXPECT_GE(in_flight, 0.8);
  // Seconds are the measured window, not the process's life or a unit off.
  EXPECT_GE(d.seconds, 0.5);
  EXPECT_LE(d.seconds, 0.6);
  EXPECT_EQ(d.bytes, d.ios * 4096);
}

// 100 MB/s through one server queue at qd 4: throughput is the rate, and every I/O waits
// for the three ahead of it, so latency is 4 x 655 us.
TEST(GroundTruth, KnownRateGivesItsThroughputAndQueueingLatency) {
  const double rate = 100e6;
  const uint64_t bs = 65536;
  RunOutcome out = RunOnNull(TimedReads(bs, 4, 0.5), EngineHooks([rate] { return new RateEngine(rate); }));
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read);
  const DirectionResult& d = *out.result.read;
  EXPECT_LE(d.mb_per_s, 101.0);
  EXPECT_GE(d.mb_per_s, 50.0);
  EXPECT_NEAR(d.iops, d.mb_per_s * 1e6 / bs, 0.01 * d.iops);
  const double service_us = bs / rate * 1e6;  // 655 us
  EXPECT_GE(d.lat.p50_us, 4 * service_us * 0.95);
  EXPECT_LE(d.lat.p50_us, 8 * service_us);
  EXPECT_GE(d.lat.mean_us, 4 * service_us * 0.95);
  EXPECT_LE(d.lat.mean_us, 8 * service_us);
  const double in_flight = d.iops * d.lat.mean_us / 1e6;
  EXPECT_LE(in_flight, 4.05);
  EXPECT_GE(in_flight, 3.2);
}

// The first 2 I/Os take 100 ms each (0.2 s) and fall inside a 0.3 s ramp: counted, they
// would put two latencies of 100 ms among the results and the measured time at 0.6 s.
// One stray slow I/O is let pass (a loaded machine stalled a 200 us sleep for 34 ms
// once while this test was written); two are the ramp.
TEST(GroundTruth, TheRampIsNotCounted) {
  RunOutcome out =
      RunOnNull(TimedReads(4096, 1, 0.3, 0.3), EngineHooks([] { return new FixedServiceEngine(200, 2, 100000); }));
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(out.result.read);
  const DirectionResult& d = *out.result.read;
  ASSERT_TRUE(d.histogram);
  ASSERT_GE(d.ios, 100u);
  // The second-slowest recorded latency, by nearest rank.
  const double second_slowest_ns = d.histogram->Percentile(1.0 - 1.5 / static_cast<double>(d.ios));
  EXPECT_LT(second_slowest_ns, 90e6) << "the ramp's 100 ms I/Os were counted";
  EXPECT_GE(d.seconds, 0.3);
  EXPECT_LE(d.seconds, 0.4) << "the ramp's time was counted";
  EXPECT_LE(d.iops, 5050);
  EXPECT_LE(d.ios, static_cast<uint64_t>(d.seconds / 200e-6) + 1);
}

}  // namespace
}  // namespace nasperf
