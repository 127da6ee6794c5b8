// OpTimings and SummariseOpTimes.
#include "suite/app/op_timings.h"
#include "stats/latency_summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nasperf {
namespace {

// Nearest rank: the smallest time at least `pct` % of the operations did not exceed.
double RankUs(const std::vector<uint64_t>& sorted, double pct) {
  const size_t rank = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(sorted.size())));
  return static_cast<double>(sorted[std::max<size_t>(rank, 1) - 1]) / 1000.0;
}

}  // namespace

OpTimings::OpTimings(std::vector<std::string> ops, size_t reserve_each)
    : names_(std::move(ops)), times_ns_(names_.size()) {
  for (auto& t : times_ns_) t.reserve(reserve_each);
}

void OpTimings::Add(size_t op_index, uint64_t ns) {
  if (op_index < times_ns_.size()) times_ns_[op_index].push_back(ns);
}

uint64_t OpTimings::count() const {
  uint64_t n = 0;
  for (const auto& t : times_ns_) n += t.size();
  return n;
}

std::vector<AppOpLatency> OpTimings::Summarise() const {
  std::vector<AppOpLatency> out;
  for (size_t i = 0; i < names_.size(); ++i)
    if (!times_ns_[i].empty()) out.push_back(SummariseOpTimes(names_[i], times_ns_[i]));
  return out;
}

OpHistograms OpTimings::Histograms() const {
  OpHistograms out;
  for (size_t i = 0; i < names_.size(); ++i) {
    if (times_ns_[i].empty()) continue;
    OpHistogram& op = out.emplace_back(OpHistogram{names_[i], {}});
    for (uint64_t ns : times_ns_[i]) op.h.Record(ns);
  }
  return out;
}

void MergeOpHistograms(OpHistograms& into, const OpHistograms& from) {
  for (const OpHistogram& op : from) {
    auto same = std::find_if(into.begin(), into.end(), [&](const OpHistogram& o) { return o.op == op.op; });
    if (same == into.end()) {
      into.push_back(op);
    } else {
      same->h.Merge(op.h);
    }
  }
}

std::vector<AppOpLatency> OpHistogramFigures(const OpHistograms& ops) {
  std::vector<AppOpLatency> out;
  for (const OpHistogram& op : ops)
    if (op.h.count()) out.push_back(SummariseOpHistogram(op.op, op.h));
  return out;
}

uint64_t OpHistogramCount(const OpHistograms& ops) {
  uint64_t n = 0;
  for (const OpHistogram& op : ops) n += op.h.count();
  return n;
}

AppOpLatency SummariseOpTimes(const std::string& op, std::vector<uint64_t> times_ns) {
  AppOpLatency lat;
  lat.op = op;
  lat.count = times_ns.size();
  if (times_ns.empty()) return lat;
  std::sort(times_ns.begin(), times_ns.end());
  const double sum_ns = std::accumulate(times_ns.begin(), times_ns.end(), 0.0);
  lat.mean_us = sum_ns / static_cast<double>(times_ns.size()) / 1000.0;
  lat.p50_us = RankUs(times_ns, 50);
  lat.p99_us = RankUs(times_ns, 99);
  lat.max_us = static_cast<double>(times_ns.back()) / 1000.0;
  return lat;
}

AppOpLatency SummariseOpHistogram(const std::string& op, const LatencyHistogram& h) {
  const LatencySummary lat = LatencySummaryOf(h);
  return AppOpLatency{op, h.count(), lat.mean_us, lat.p50_us, lat.p99_us, lat.max_us};
}

}  // namespace nasperf
