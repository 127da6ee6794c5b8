// Median, t quantiles and confidence intervals.
#include "stats/confidence.h"

#include <algorithm>
#include <cmath>

namespace nasperf {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double StudentT95(int dof) {
  static const double kTable[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                                  2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof < 1) return 0;
  if (dof <= 30) return kTable[dof];
  if (dof <= 60) return 2.042 - (2.042 - 2.000) * (dof - 30) / 30.0;
  if (dof <= 120) return 2.000 - (2.000 - 1.980) * (dof - 60) / 60.0;
  return 1.960;
}

std::optional<Interval> ConfidenceInterval95(const std::vector<double>& values) {
  if (values.size() < 2) return std::nullopt;
  double n = static_cast<double>(values.size());
  double mean = 0;
  for (double v : values) mean += v;
  mean /= n;
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  double half = StudentT95(static_cast<int>(values.size()) - 1) * std::sqrt(ss / (n - 1)) / std::sqrt(n);
  return Interval{mean - half, mean + half};
}

RepeatSpread SummariseRepeats(const std::vector<double>& values) {
  RepeatSpread out;
  out.count = values.size();
  if (values.empty()) return out;
  out.median = Median(values);
  out.ci95 = ConfidenceInterval95(values);
  if (out.ci95 && out.ci95->low < 0) out.ci95->low = 0;  // throughput is never negative
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (out.median > 0) out.spread_pct = (*hi - *lo) / out.median * 100;
  else if (*hi > *lo) out.spread_pct = 100;  // a zero median with any variation is all noise
  out.noisy = out.spread_pct > kNoisySpreadPct;
  return out;
}

}  // namespace nasperf

namespace nasperf {

bool IntervalWithin(const std::vector<double>& values, double pct) {
  std::optional<Interval> ci = ConfidenceInterval95(values);
  const double median = Median(values);
  if (!ci || !(median > 0)) return false;
  return (ci->high - ci->low) / 2 < pct / 100 * median;
}

bool RepeatUntilStops(const std::vector<double>& values, double pct) {
  return values.size() >= kRepeatUntilMinRepeats && IntervalWithin(values, pct);
}

}  // namespace nasperf
