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

// One kind of operation's latencies as a histogram, under its name: the form in which a
// rank sends rank 0 its operations (mpirun), so that rank 0 sums buckets, not percentiles.
struct OpHistogram {
  std::string op;
  LatencyHistogram h;
};
using OpHistograms = std::vector<OpHistogram>;

// Adds `from` to `into`, operation by name (an operation new to `into` goes at its end).
void MergeOpHistograms(OpHistograms& into, const OpHistograms& from);
// One AppOpLatency per operation that happened, in order (SummariseOpHistogram).
std::vector<AppOpLatency> OpHistogramFigures(const OpHistograms& ops);
// Every operation's count.
uint64_t OpHistogramCount(const OpHistograms& ops);

class OpTimings {
 public:
  // `ops` in the order they are reported; `reserve_each` times are kept without allocating.
  OpTimings(std::vector<std::string> ops, size_t reserve_each);
  // Adds one `op` that took `ns`; an op not named at construction is ignored.
  void Add(size_t op_index, uint64_t ns);
  uint64_t count() const;
  // One entry per op that happened, in construction order; microseconds.
  std::vector<AppOpLatency> Summarise() const;
  // The same times as histograms, one per op that happened, in construction order.
  OpHistograms Histograms() const;

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
