// Tests for median and t-based confidence intervals.
#include "stats/confidence.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace nasperf
