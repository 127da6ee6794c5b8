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

// --repeat-until checks its rule from this many repeats on, never before. Stopping when
// the interval looks narrow makes n depend on the data, and a fixed-n interval then
// covers the truth less often than it says: most of all at n = 2 or 3, where two close
// values by chance make a narrow interval (RepeatUntil.* in confidence_test.cpp measures
// it: ~90 % coverage with the rule from 2 repeats on, ~94 % from 5, at a 5 % spread).
inline constexpr size_t kRepeatUntilMinRepeats = 5;
// Whether --repeat-until stops after `values`: at least kRepeatUntilMinRepeats of them,
// and IntervalWithin(values, pct).
bool RepeatUntilStops(const std::vector<double>& values, double pct);
// How the interval of a run that --repeat-until stopped is labelled: the formula is
// Student t's for a fixed n, and the n was not fixed.
inline constexpr const char* kAfterDataDependentStop =
    "fixed-n formula after a data-dependent stop: wider in truth";

// Two-sided 95 % Student t quantile for `dof` degrees of freedom.
double StudentT95(int dof);

}  // namespace nasperf
