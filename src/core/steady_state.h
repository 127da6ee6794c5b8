// --steady (fio's steadystate): watches a run's per-second figures and says when the last
// window of them lies within the tolerance of its mean, so the runner can stop there.
#pragma once

#include <cstddef>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/result.h"

namespace nasperf {

class SteadyWatch {
 public:
  // `rule.metric` must not be kNone; the window holds round(window_s) one-second figures.
  explicit SteadyWatch(const SteadyRule& rule);
  // One interval's figure (IOPS or MB/s, per the rule) ending `t_s` seconds after
  // measurement began. Returns true once the rule holds; later figures change nothing.
  bool Add(double t_s, double value);
  bool reached() const { return facts_.reached; }
  // Reached: when and over what; not reached: the last full window's mean and spread
  // (zeros before the first full window).
  const SteadyFacts& facts() const { return facts_; }

 private:
  SteadyRule rule_;
  size_t window_ = 1;
  std::vector<double> values_;
  SteadyFacts facts_;
};

}  // namespace nasperf
