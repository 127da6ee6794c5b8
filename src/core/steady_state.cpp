// SteadyWatch.
#include "core/steady_state.h"

#include <algorithm>
#include <cmath>

namespace nasperf {

SteadyWatch::SteadyWatch(const SteadyRule& rule)
    : rule_(rule), window_(std::max<size_t>(1, static_cast<size_t>(std::lround(rule.window_s)))) {}

bool SteadyWatch::Add(double t_s, double value) {
  if (facts_.reached) return true;
  values_.push_back(value);
  if (values_.size() < window_) return false;
  const auto first = values_.end() - static_cast<std::ptrdiff_t>(window_);
  double sum = 0;
  for (auto it = first; it != values_.end(); ++it) sum += *it;
  const double mean = sum / static_cast<double>(window_);
  double spread = 0;
  for (auto it = first; it != values_.end(); ++it) spread = std::max(spread, std::fabs(*it - mean));
  facts_.mean = mean;
  // A window of nothing (a stalled target) is not steady state: it is no state at all.
  facts_.spread_pct = mean > 0 ? spread / mean * 100 : 0;
  if (mean > 0 && facts_.spread_pct <= rule_.tolerance_pct) {
    facts_.reached = true;
    facts_.at_s = t_s;
  }
  return facts_.reached;
}

}  // namespace nasperf
