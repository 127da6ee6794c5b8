// A sweep as one item: what ran, how the cache was handled, and the cache analysis of
// every curve. Printed after a sweep, kept with its invocation in the results database
// (as JSON) and read back by `results show`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nasperf/result.h"
#include "suite/cache_analysis.h"
#include "suite/sweep_plan.h"

namespace nasperf {

struct SweepCurve {
  std::string test;  // "write", "read", ...
  uint64_t record_bytes = 0;
  CurveAnalysis analysis;
};

struct SweepSummary {
  int64_t id = 0;  // the invocation id; 0 when not stored
  std::string target;
  bool direct = false;
  bool fsync = false;
  uint32_t repeat = 1;
  std::vector<uint64_t> sizes;
  std::vector<uint64_t> records;
  std::vector<std::string> tests;
  std::string max_reason;
  CacheRam ram;
  // How cold reads were prepared: the method, how many drops, and the most of the file
  // any drop left in this machine's page cache.
  std::string cache_method;
  uint32_t cache_drops = 0;
  double max_resident_pct = 0;
  std::vector<std::string> notes;
  bool partial = false;
  std::vector<SweepCurve> curves;
};

// One curve per (test, record) that has points, from the sweep's runs (each run's
// test, job.size, job.bs, figures and cached mark).
std::vector<SweepCurve> AnalyseCurves(const std::vector<RunResult>& points, const SweepSummary& summary);
// The MB/s of a sweep point: the direction its test measures.
double PointMbPerS(const RunResult& point);

// What the points of a sweep that never stored its summary still tell (sizes, records,
// tests, target), with their curves analysed; the RAM comes from their inventory.
SweepSummary SummaryFromPoints(const std::vector<RunResult>& points);

nlohmann::ordered_json SweepToJson(const SweepSummary& summary);
// Io (never BadInput: the JSON is nasperf's own) when a stored summary cannot be read.
Result<SweepSummary> SweepFromJson(const nlohmann::ordered_json& j);

}  // namespace nasperf
