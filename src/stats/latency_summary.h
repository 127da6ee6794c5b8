// A direction's latency figures from its histogram: the one place mean, p50 ... max in
// microseconds are read off the buckets (the runner, group totals, app runs and merged
// ranks all summarise this way, so their figures agree to the bucket).
#pragma once

#include "nasperf/result.h"
#include "stats/histogram.h"

namespace nasperf {

LatencySummary LatencySummaryOf(const LatencyHistogram& h);

}  // namespace nasperf
