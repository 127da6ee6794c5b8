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
// Two-sided 95 % Student t quantile for `dof` degrees of freedom.
double StudentT95(int dof);

}  // namespace nasperf
