// SteadyWatch on made-up series: reached exactly when the last window is within the
// tolerance of its mean, never on a window of zeros, and not before the window is full.
#include "core/steady_state.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

SteadyRule Rule(double tolerance_pct, double window_s) {
  SteadyRule r;
  r.metric = SteadyRule::Metric::kIops;
  r.tolerance_pct = tolerance_pct;
  r.window_s = window_s;
  return r;
}

TEST(SteadyWatch, ReachedAtTheFirstWindowWithinTolerance) {
  SteadyWatch w(Rule(2, 3));
  // A ramp that settles: 500, 800, 990, 1000, 1010, 1000.
  EXPECT_FALSE(w.Add(1, 500));
  EXPECT_FALSE(w.Add(2, 800));
  EXPECT_FALSE(w.Add(3, 990));   // window 500..990: far apart
  EXPECT_FALSE(w.Add(4, 1000));  // 800, 990, 1000: mean 930, 800 is 14 % off
  EXPECT_TRUE(w.Add(5, 1010));   // 990, 1000, 1010: mean 1000, spread 1 %
  EXPECT_TRUE(w.reached());
  EXPECT_DOUBLE_EQ(w.facts().at_s, 5);
  EXPECT_DOUBLE_EQ(w.facts().mean, 1000);
  EXPECT_NEAR(w.facts().spread_pct, 1.0, 1e-9);
  EXPECT_TRUE(w.Add(6, 5));  // once reached, later figures change nothing
  EXPECT_DOUBLE_EQ(w.facts().at_s, 5);
}

TEST(SteadyWatch, JustOverTheToleranceIsNotSteady) {
  SteadyWatch w(Rule(2, 2));
  EXPECT_FALSE(w.Add(1, 100));
  EXPECT_FALSE(w.Add(2, 104.1));  // mean 102.05, each 2.009 % off
  EXPECT_NEAR(w.facts().spread_pct, 2.05 / 102.05 * 100, 1e-9);
  EXPECT_TRUE(w.Add(3, 100.1));  // 104.1, 100.1: mean 102.1, 1.96 % off
}

TEST(SteadyWatch, NotBeforeTheWindowIsFull) {
  SteadyWatch w(Rule(50, 4));
  EXPECT_FALSE(w.Add(1, 10));
  EXPECT_FALSE(w.Add(2, 10));
  EXPECT_FALSE(w.Add(3, 10));
  EXPECT_FALSE(w.reached());
  EXPECT_TRUE(w.Add(4, 10));
}

TEST(SteadyWatch, AStalledTargetIsNotSteady) {
  SteadyWatch w(Rule(2, 2));
  EXPECT_FALSE(w.Add(1, 0));
  EXPECT_FALSE(w.Add(2, 0));
  EXPECT_FALSE(w.Add(3, 0));
  EXPECT_FALSE(w.reached());
}

}  // namespace
}  // namespace nasperf
