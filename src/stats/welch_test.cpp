// Tests of Welch's t-test against values computed elsewhere.
#include "stats/welch.h"

#include <gtest/gtest.h>

#include <cmath>

namespace nasperf {
namespace {

TEST(Welch, MatchesScipy) {
  // scipy.stats.ttest_ind([1,2,3,4,5], [2,4,6,8,10], equal_var=False):
  // t = -1.8974, df = 5.882, p = 0.1075 (also by hand: var 2.5 and 10, se^2 = 2.5).
  std::optional<WelchTest> w = WelchTTest({1, 2, 3, 4, 5}, {2, 4, 6, 8, 10});
  ASSERT_TRUE(w);
  EXPECT_NEAR(w->t, -1.8974, 1e-4);
  EXPECT_NEAR(w->dof, 5.882, 1e-3);
  EXPECT_NEAR(w->p, 0.1075, 1e-4);
  EXPECT_FALSE(w->significant());
}

TEST(Welch, AClearDifferenceIsSignificant) {
  // {100,102,98} vs {110,111,109,112}: t = -7.9373, df = 3.2347 (Welch's formulas by hand),
  // p = 0.003161 (Simpson integration of the t density at that df, python).
  std::optional<WelchTest> w = WelchTTest({100, 102, 98}, {110, 111, 109, 112});
  ASSERT_TRUE(w);
  EXPECT_NEAR(w->t, -7.9373, 1e-4);
  EXPECT_NEAR(w->dof, 3.2347, 1e-4);
  EXPECT_NEAR(w->p, 0.003161, 1e-6);
  EXPECT_TRUE(w->significant());
  // The order of the sets flips the sign only.
  std::optional<WelchTest> back = WelchTTest({110, 111, 109, 112}, {100, 102, 98});
  EXPECT_NEAR(back->t, 7.9373, 1e-4);
  EXPECT_NEAR(back->p, w->p, 1e-12);
}

TEST(Welch, TwoRepeatsOfTheSameFigureAreNotSignificant) {
  // 500.1, 499.7 vs 500.4, 498.9: t = 0.3221, df = 1.1415, p = 0.7963 (python, as above).
  std::optional<WelchTest> w = WelchTTest({500.1, 499.7}, {500.4, 498.9});
  ASSERT_TRUE(w);
  EXPECT_NEAR(w->t, 0.3221, 1e-4);
  EXPECT_NEAR(w->dof, 1.1415, 1e-4);
  EXPECT_NEAR(w->p, 0.7963, 1e-4);
}

TEST(Welch, NeedsTwoValuesOnEachSide) {
  EXPECT_FALSE(WelchTTest({1}, {2, 3}));
  EXPECT_FALSE(WelchTTest({1, 2}, {}));
}

TEST(Welch, ConstantSets) {
  EXPECT_DOUBLE_EQ(WelchTTest({5, 5}, {5, 5, 5})->p, 1);
  std::optional<WelchTest> apart = WelchTTest({5, 5}, {6, 6});
  EXPECT_EQ(apart->p, 0);
  EXPECT_TRUE(std::isinf(apart->t) && apart->t < 0);
  // One constant set and one that varies is an ordinary test.
  std::optional<WelchTest> one = WelchTTest({5, 5, 5}, {4, 6, 5});
  EXPECT_NEAR(one->p, 1, 1e-12);
}

}  // namespace
}  // namespace nasperf
