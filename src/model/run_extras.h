// The facts of a run that ride in the results database's job_json beside the job (no
// schema change, like qd_run and the write data facts): a job file's name and group,
// --steady's outcome and whether --repeat-until was met.
#pragma once

#include <nlohmann/json.hpp>

#include "nasperf/result.h"

namespace nasperf {

// Adds "file_job": {"name", "group"}, "steady": {...} and "repeat_until_met" to `job`
// when the run has them.
void AddRunExtras(const RunResult& run, nlohmann::ordered_json& job);
// Reads them back into `run`; absent or malformed members leave its defaults.
void ReadRunExtras(const nlohmann::json& job, RunResult& run);

// The document's "steady" member: {"reached", "at_s", "mean", "spread_pct", "metric",
// "tolerance_pct", "window_s"}; SteadyFromJson reads it (nullopt when absent or malformed).
nlohmann::ordered_json SteadyToJson(const SteadyFacts& facts, const SteadyRule& rule);
std::optional<SteadyFacts> SteadyFromJson(const nlohmann::json& j);

}  // namespace nasperf
