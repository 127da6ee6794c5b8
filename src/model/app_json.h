// The "app" member of a run (include/nasperf/app_result.h: what an application workload
// measured) as JSON, shared by the document, the results database and the agent's replies.
#pragma once

#include <nlohmann/json.hpp>

#include "nasperf/app_result.h"
#include "nasperf/status.h"

namespace nasperf {

// {"workload", "from", "to", "elapsed_s", "bytes", "files", "mb_per_s", "files_per_s"?,
//  "source_mb_per_s"?, "threads", "cache_state", "write_flush"? ("fsync_in_clock" | "none"
//  | "some_files": the writes inside the clock), "fill_pct"?, "small_file_penalty"?,
//  "ops": [{"op", "count", "mean_us", "p50_us", "p99_us", "max_us"}],
//  "streams": [{"index", "dir", "chunks", "deadline_misses", "stall_s", "late_p99_us"}],
//  "max_streams"?, "dataset"?: {"generator", "preset", "scale", "seed", "files", "dirs",
//  "bytes", "median_bytes", "mean_bytes", "p90_bytes", "p99_bytes", "share_over_1mib",
//  "digest"}}. A member marked ? is written only when known.
nlohmann::ordered_json AppToJson(const AppFigures& app);

// Reads what AppToJson wrote. Tolerant of absence: a missing member (or null) keeps its
// default, so documents of older or newer nasperfs read. Strict on types: a member of the
// wrong type is BadInput naming it ("app.ops[2].count: expected a count, got -1").
Result<AppFigures> AppFromJson(const nlohmann::json& j);

}  // namespace nasperf
