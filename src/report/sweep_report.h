// The sweep as text: a table per record size (rows: file size; columns: tests, MB/s),
// cached points marked, then how the cache was handled and each curve's analysis.
#pragma once

#include <string>
#include <vector>

#include "nasperf/result.h"
#include "model/sweep_summary.h"

namespace nasperf {

std::string SweepTable(const SweepSummary& summary, const std::vector<RunResult>& points);

}  // namespace nasperf
