// A sweep's analysis: the cache analysis of every curve of its points, and the summary
// that points alone still tell (the summary's structs and JSON are model/sweep_summary.h).
#pragma once

#include <vector>

#include "model/sweep_summary.h"
#include "nasperf/result.h"
#include "suite/cache_analysis.h"
#include "suite/sweep_plan.h"

namespace nasperf {

// One curve per (test, record) that has points, from the sweep's runs (each run's
// test, job.size, job.bs, figures and cached mark).
std::vector<SweepCurve> AnalyseCurves(const std::vector<RunResult>& points, const SweepSummary& summary);

// What the points of a sweep that never stored its summary still tell (sizes, records,
// tests, target), with their curves analysed; the RAM comes from their inventory.
SweepSummary SummaryFromPoints(const std::vector<RunResult>& points);

}  // namespace nasperf
