// Welch's t-test: do two sets of repeats (unequal counts, unequal variances) have
// different means? What `results compare` uses to call a difference significant.
#pragma once

#include <optional>
#include <vector>

namespace nasperf {

// Two-sided, at this level: p below it is "significant".
inline constexpr double kSignificanceLevel = 0.05;

struct WelchTest {
  double t = 0;    // (mean_a - mean_b) / sqrt(var_a/n_a + var_b/n_b); +-inf when both sets are constant
  double dof = 0;  // Welch-Satterthwaite degrees of freedom (fractional); NaN when t is infinite or 0/0
  double p = 1;    // two-sided p-value from Student's t with `dof`
  bool significant() const { return p < kSignificanceLevel; }
};

// nullopt when either set has fewer than two values (no variance to judge by). Two
// constant sets: p = 1 when their means are equal, p = 0 when they differ.
std::optional<WelchTest> WelchTTest(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace nasperf
