// Tests for median and t-based confidence intervals.
#include "stats/confidence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace nasperf {
namespace {

TEST(Confidence, Median) {
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(Median({}), 0);
}

TEST(Confidence, IntervalMatchesHandComputation) {
  // mean 100, sample sd 10, n 3: half width = 4.303 * 10 / sqrt(3) = 24.84
  std::optional<Interval> ci = ConfidenceInterval95({90, 100, 110});
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->low, 100 - 24.844, 0.01);
  EXPECT_NEAR(ci->high, 100 + 24.844, 0.01);
  EXPECT_FALSE(ConfidenceInterval95({5}));
}

TEST(Confidence, OverlapDecidesSignificance) {
  Interval a = *ConfidenceInterval95({100, 101, 99});
  Interval b = *ConfidenceInterval95({120, 121, 119});
  Interval c = *ConfidenceInterval95({100.5, 103, 98});
  EXPECT_FALSE(a.Overlaps(b));
  EXPECT_TRUE(a.Overlaps(c));
  EXPECT_NEAR(StudentT95(1000), 1.96, 1e-9);
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

TEST(Confidence, RepeatSpreadFlagsNoisyRepeats) {
  RepeatSpread calm = SummariseRepeats({100, 102, 98});
  EXPECT_EQ(calm.count, 3u);
  EXPECT_DOUBLE_EQ(calm.median, 100);
  EXPECT_NEAR(calm.spread_pct, 4.0, 1e-9);
  EXPECT_FALSE(calm.noisy);
  ASSERT_TRUE(calm.ci95.has_value());
  EXPECT_LT(calm.ci95->low, 100);
  EXPECT_GT(calm.ci95->high, 100);

  RepeatSpread noisy = SummariseRepeats({100, 111, 95});
  EXPECT_NEAR(noisy.spread_pct, 16.0, 1e-9);
  EXPECT_TRUE(noisy.noisy);

  RepeatSpread edge = SummariseRepeats({100, 110});  // 10 / 105 = 9.5 %: just under the line
  EXPECT_FALSE(edge.noisy);

  RepeatSpread single = SummariseRepeats({42});
  EXPECT_FALSE(single.ci95.has_value());
  EXPECT_EQ(single.spread_pct, 0);
  EXPECT_EQ(SummariseRepeats({}).count, 0u);
  EXPECT_TRUE(SummariseRepeats({0, 0, 5}).noisy);
}

// --repeat-until's test: half-width of the Student t interval against % of the median.
TEST(Confidence, IntervalWithinComparesTheHalfWidthToTheMedian) {
  // {100, 102}: s = 1.414, t(1) = 12.706, half-width 12.706 = 12.58 % of the median 101.
  EXPECT_TRUE(IntervalWithin({100, 102}, 13));
  EXPECT_FALSE(IntervalWithin({100, 102}, 12.5));
  // Five calm repeats: s = 0.707, t(4) = 2.776, half-width 0.878 % of 100.
  EXPECT_TRUE(IntervalWithin({100, 101, 99, 100, 100}, 1));
  EXPECT_FALSE(IntervalWithin({100, 101, 99, 100, 100}, 0.8));
  EXPECT_FALSE(IntervalWithin({100}, 50));    // one repeat has no interval
  EXPECT_FALSE(IntervalWithin({0, 0}, 50));   // nothing moved: no median to be within
}

// Issue 33 item 7: --repeat-until stopped at n = 2 or 3 when two repeats happened to be
// close. The rule is now checked from kRepeatUntilMinRepeats (5) repeats on.
TEST(RepeatUntil, NeverStopsBeforeTheMinimumRepeats) {
  EXPECT_EQ(kRepeatUntilMinRepeats, 5u);
  // Identical repeats: the narrowest interval there is, and still no stop below 5.
  EXPECT_FALSE(RepeatUntilStops({100, 100.001}, 50));
  EXPECT_FALSE(RepeatUntilStops({100, 100.001, 100}, 50));
  EXPECT_FALSE(RepeatUntilStops({100, 100.001, 100, 100}, 50));
  EXPECT_TRUE(RepeatUntilStops({100, 100.001, 100, 100, 100}, 50));
  EXPECT_FALSE(RepeatUntilStops({100, 101, 99, 100, 100}, 0.8));  // the rule itself still applies
}

// Coverage of the fixed-n 95 % t interval after a data-dependent stop, by simulation
// (fixed seed: the same draws every run). Repeats ~ N(100, 5), cap 10, stop when the
// half-width is under 5 % of the median. Checked from 2 repeats on, the interval holds the
// true mean far less often than 95 %; from 5 on, much closer, yet still under 95 %: so a
// stopped series' interval is labelled as the fixed-n formula after a data-dependent stop.
double CoverageWhenCheckedFrom(size_t min_repeats) {
  std::mt19937_64 rng(33);
  std::normal_distribution<double> repeat(100, 5);
  int covered = 0;
  constexpr int kSeries = 20000;
  for (int s = 0; s < kSeries; ++s) {
    std::vector<double> v;
    while (v.size() < 10) {
      v.push_back(repeat(rng));
      if (v.size() >= std::max<size_t>(2, min_repeats) && IntervalWithin(v, 5)) break;
    }
    const std::optional<Interval> ci = ConfidenceInterval95(v);
    covered += ci && ci->low <= 100 && 100 <= ci->high;
  }
  return static_cast<double>(covered) / kSeries;
}

TEST(RepeatUntil, AStopFromFiveRepeatsOnCoversNearlyAsMuchAsItSays) {
  const double from_two = CoverageWhenCheckedFrom(2), from_five = CoverageWhenCheckedFrom(kRepeatUntilMinRepeats);
  EXPECT_LT(from_two, 0.92) << from_two;   // ~0.90
  EXPECT_GT(from_five, 0.93) << from_five;  // ~0.94
  EXPECT_LT(from_five, 0.95) << from_five;  // still not the 95 % it is computed for
}

}  // namespace
}  // namespace nasperf
