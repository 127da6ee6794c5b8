// A paced run's "pacing" member of the JSON document (and of the results database's
// job_json): what the schedule asked, what the run achieved, and the service times beside
// the directions' latencies, which for a paced run are timed from each I/O's intended start.
#pragma once

#include <nlohmann/json.hpp>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

// {"rates_are": "job total over all threads", "threads", "target_iops" (or
//  "target_mb_per_s"), its "per_thread_" twin, "achieved_iops", "achieved_mb_per_s",
//  "sustained", "shortfall_pct", "excess_pct", "lat_us_from": "intended start", "service_us_from": "submit",
//  "read_service_us" / "write_service_us": {"mean", "p50", "p90", "p99", "p999", "max"}}
// A target that is 0 (not paced by it) is left out, as is a direction without service times.
// Think time alone sets no target: then "think": "closed loop" and "lat_us_from": "submit"
// stand instead of the verdict ("sustained", "shortfall_pct", "excess_pct"), since nothing
// was scheduled to sustain.
// A run of `ranks` > 1 clients (mpirun): "rates_are": "job total over all ranks and
// threads", "ranks" and "per_rank_target_..." too; "threads" is each rank's.
nlohmann::ordered_json PacingToJson(const PacingFacts& facts, uint32_t threads, uint32_t ranks = 1);
// Reads what PacingToJson wrote, tolerantly (missing members keep their defaults); the
// histograms do not travel. BadInput naming the member when one has the wrong type.
Result<PacingFacts> PacingFromJson(const nlohmann::json& j);

}  // namespace nasperf
