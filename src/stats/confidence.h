// Median and 95 % confidence interval of repeated measurements (Student's t on the
// mean: repeats are few, so the t quantile, not 1.96, sets the width).
#pragma once

#include <optional>
#include <vector>

namespace nasperf {

struct Interval {
  double low = 0, high = 0;
  bool Overlaps(const Interval& other) const { return low <= other.high && other.low <= high; }
};

double Median(std::vector<double> values);
// nullopt for fewer than two values.
std::optional<Interval> ConfidenceInterval95(const std::vector<double>& values);
// What a set of repeats says about one figure. "Spread" is (max - min) / median: a
// spread over kNoisySpreadPct marks the measurement as noisy, whatever the interval.
inline constexpr double kNoisySpreadPct = 10.0;
struct RepeatSpread {
  size_t count = 0;
  double median = 0;
  std::optional<Interval> ci95;  // Student t on the mean; nullopt for fewer than 2
  double spread_pct = 0;
  bool noisy = false;
};
RepeatSpread SummariseRepeats(const std::vector<double>& values);
inline constexpr const char* kConfidenceMethod = "Student t on the mean";

// --repeat-until: whether the 95 % interval's half-width is under `pct` % of the median;
// false for fewer than two values or a median of 0.
bool IntervalWithin(const std::vector<double>& values, double pct);

// Two-sided 95 % Student t quantile for `dof` degrees of freedom.
double StudentT95(int dof);

}  // namespace nasperf
