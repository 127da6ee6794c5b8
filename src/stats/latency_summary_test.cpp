// LatencySummaryOf reads every figure off the buckets, in microseconds.
#include "stats/latency_summary.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(LatencySummary, EveryFigureIsTheHistogramsInMicroseconds) {
  LatencyHistogram h;
  for (uint64_t ns = 1000; ns <= 100000; ns += 1000) h.Record(ns);  // 1 .. 100 us
  const LatencySummary s = LatencySummaryOf(h);
  EXPECT_DOUBLE_EQ(s.mean_us, h.mean_ns() / 1000);
  EXPECT_DOUBLE_EQ(s.p50_us, h.Percentile(0.50) / 1000);
  EXPECT_DOUBLE_EQ(s.p90_us, h.Percentile(0.90) / 1000);
  EXPECT_DOUBLE_EQ(s.p99_us, h.Percentile(0.99) / 1000);
  EXPECT_DOUBLE_EQ(s.p999_us, h.Percentile(0.999) / 1000);
  EXPECT_DOUBLE_EQ(s.max_us, 100.0);
  EXPECT_NEAR(s.p50_us, 50, 50 * 0.05);  // within the histogram's bucket width
  EXPECT_LE(s.p50_us, s.p90_us);
  EXPECT_LE(s.p99_us, s.max_us);
}

}  // namespace
}  // namespace nasperf
