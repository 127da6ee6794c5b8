// Per-operation latency of an application workload: each kind of operation's times,
// recorded into space reserved before the clock starts, summarised into AppOpLatency
// (exact percentiles: a workload makes thousands of operations, not millions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nasperf/app_result.h"
#include "stats/histogram.h"

namespace nasperf {

class OpTimings {
 public:
  // `ops` in the order they are reported; `reserve_each` times are kept without allocating.
  OpTimings(std::vector<std::string> ops, size_t reserve_each);
  // Adds one `op` that took `ns`; an op not named at construction is ignored.
  void Add(size_t op_index, uint64_t ns);
  uint64_t count() const;
  // One entry per op that happened, in construction order; microseconds.
  std::vector<AppOpLatency> Summarise() const;

 private:
  std::vector<std::string> names_;
  std::vector<std::vector<uint64_t>> times_ns_;
};

// The AppOpLatency of `times_ns` (count, mean, nearest-rank p50/p99, max) under `op`.
AppOpLatency SummariseOpTimes(const std::string& op, std::vector<uint64_t> times_ns);
// The same figures read off a histogram (the copy loop's and the video streams' ops, whose
// counts are not bounded in advance).
AppOpLatency SummariseOpHistogram(const std::string& op, const LatencyHistogram& h);

}  // namespace nasperf
