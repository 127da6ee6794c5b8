// Tests of the incomplete beta function and Student's t distribution against closed
// forms and printed tables.
#include "stats/student_t.h"

#include <gtest/gtest.h>

#include <cmath>

namespace nasperf {
namespace {

TEST(IncompleteBeta, MatchesClosedForms) {
  // I_x(1, 1) = x; I_x(a, 1) = x^a; I_0.5(a, a) = 1/2 by symmetry.
  EXPECT_NEAR(RegularizedIncompleteBeta(1, 1, 0.37), 0.37, 1e-12);
  EXPECT_NEAR(RegularizedIncompleteBeta(2.5, 1, 0.3), std::pow(0.3, 2.5), 1e-12);
  EXPECT_NEAR(RegularizedIncompleteBeta(7.3, 7.3, 0.5), 0.5, 1e-12);
  // Integer a, b: I_x(a, b) = P(Binomial(a+b-1, x) >= a). I_0.4(2, 3) =
  // 6*.4^2*.6^2 + 4*.4^3*.6 + .4^4 = 0.5248, worked by hand.
  EXPECT_NEAR(RegularizedIncompleteBeta(2, 3, 0.4), 0.5248, 1e-12);
  // Both branches of the continued fraction (x below and above (a+1)/(a+b+2)).
  EXPECT_NEAR(RegularizedIncompleteBeta(3, 2, 0.6), 1 - 0.5248, 1e-12);
  EXPECT_EQ(RegularizedIncompleteBeta(2, 3, 0), 0);
  EXPECT_EQ(RegularizedIncompleteBeta(2, 3, 1), 1);
  EXPECT_TRUE(std::isnan(RegularizedIncompleteBeta(0, 3, 0.5)));
  EXPECT_TRUE(std::isnan(RegularizedIncompleteBeta(2, 3, 1.5)));
}

TEST(StudentT, CdfMatchesClosedForms) {
  // dof 1 is Cauchy: F(t) = 1/2 + atan(t)/pi.
  EXPECT_NEAR(StudentTCdf(1, 1), 0.75, 1e-12);
  EXPECT_NEAR(StudentTCdf(-3, 1), 0.5 + std::atan(-3.0) / M_PI, 1e-12);
  // dof 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)).
  EXPECT_NEAR(StudentTCdf(1, 2), 0.5 + 1 / (2 * std::sqrt(3.0)), 1e-12);
  EXPECT_NEAR(StudentTCdf(0, 4.7), 0.5, 1e-12);
}

TEST(StudentT, CdfMatchesPrintedQuantiles) {
  // Quantiles from the standard t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), six digits.
  EXPECT_NEAR(StudentTCdf(12.706205, 1), 0.975, 1e-6);
  EXPECT_NEAR(StudentTCdf(2.015048, 5), 0.95, 1e-6);
  EXPECT_NEAR(StudentTCdf(2.228139, 10), 0.975, 1e-6);
  EXPECT_NEAR(StudentTCdf(2.749996, 30), 0.995, 1e-6);
  EXPECT_NEAR(StudentTCdf(-2.228139, 10), 0.025, 1e-6);
  // Very many degrees of freedom: the normal's 1.959964.
  EXPECT_NEAR(StudentTCdf(1.959964, 1e8), 0.975, 1e-6);
  // A fractional dof (what Welch produces): 3.5 at 7.5 dof, two-sided p 0.0089489 by
  // Simpson integration of the t density (python, 200,000 steps).
  EXPECT_NEAR(StudentTTwoSidedP(3.5, 7.5), 0.0089489, 1e-6);
}

TEST(StudentT, TwoSidedPAtTheEnds) {
  EXPECT_DOUBLE_EQ(StudentTTwoSidedP(0, 3), 1);
  EXPECT_EQ(StudentTTwoSidedP(INFINITY, 3), 0);
  EXPECT_TRUE(std::isnan(StudentTTwoSidedP(1, 0)));
}

}  // namespace
}  // namespace nasperf
