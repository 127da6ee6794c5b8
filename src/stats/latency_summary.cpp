#include "stats/latency_summary.h"

namespace nasperf {

LatencySummary LatencySummaryOf(const LatencyHistogram& h) {
  LatencySummary s;
  s.mean_us = h.mean_ns() / 1000;
  s.p50_us = h.Percentile(0.50) / 1000;
  s.p90_us = h.Percentile(0.90) / 1000;
  s.p99_us = h.Percentile(0.99) / 1000;
  s.p999_us = h.Percentile(0.999) / 1000;
  s.max_us = static_cast<double>(h.max_ns()) / 1000;
  return s;
}

}  // namespace nasperf
