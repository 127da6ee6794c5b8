// The JSON result document of DESIGN.md: {"nasperf": {...}, "runs": [...]}, and the job's
// JSON form that the results database stores.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"
#include "model/job_json.h"

namespace nasperf {

// A run's "data" member: {"pattern", "unique_blocks", "compress_ratio", "compress_sample_bytes"}
// and, for zeros, a "note" saying what they let storage do. DataFromJson reads it back;
// nullopt when absent or not an object of that shape.
nlohmann::ordered_json DataToJson(const DataFacts& data);
std::optional<DataFacts> DataFromJson(const nlohmann::json& j);

// One repeat's figures, as the document's "repeats.each[]" entry and the results
// database's repeats_json entry (the one encoding of repeats):
//   {"read": {"mb_per_s", "iops", "lat_mean_us", "lat_p99_us"}, "write": {...same},
//    "seconds", "seed" (only when known)}
// `read` / `write`: whether that direction is written (the document writes only the
// directions the run did; the store writes both).
nlohmann::ordered_json RepeatToJson(const RepeatFigures& r, bool read, bool write);
// Reads what RepeatToJson wrote: a missing member is 0 (a direction not written, a seed
// not known, or not an unsigned number). BadInput naming the member ("read.iops: expected
// a number") when `j` is not an object or a figure is not a number.
Result<RepeatFigures> RepeatFromJson(const nlohmann::json& j);

// One direction's figures: {"bytes", "ios", "seconds", "mb_per_s", "iops", "errors",
// "lat_us": {"mean", "p50", "p90", "p99", "p999", "max"}}; a missing member reads as 0
// (nlohmann's exception on a wrong type, which RunFromJson turns into BadInput).
nlohmann::ordered_json DirectionToJson(const DirectionResult& d);
DirectionResult DirectionFromJson(const nlohmann::json& j);

nlohmann::ordered_json RunToJson(const RunResult& run);
// Reads what RunToJson wrote (an agent's runs): every field it knows, defaults for the
// rest; latency histograms do not travel, only their percentiles. BadInput naming the fault.
Result<RunResult> RunFromJson(const nlohmann::json& j);
nlohmann::ordered_json DocumentToJson(const std::vector<RunResult>& runs);

// A run's "protocol" member: {"protocol", "version", "label", "server", "share",
// "options": {...in order}}, or null for a local target.
// RunResult::per_size as the document's "per_size" array (each {"bs", "read", "write"}),
// and back; the results database keeps the same array. BadInput naming "per_size".
nlohmann::ordered_json PerSizeToJson(const std::vector<SizeResult>& sizes);
Result<std::vector<SizeResult>> PerSizeFromJson(const nlohmann::json& j);

nlohmann::ordered_json ProtocolToJson(const std::optional<ProtocolFacts>& facts);
// Reads what ProtocolToJson wrote: null or absent is nullopt; anything else must be an
// object with a non-empty "protocol" string, string "version", "server" and "share" (may
// be absent) and an "options" object of strings (kept in the document's order). "label"
// is derived, so it is not read back. BadInput naming the member ("protocol.options.x: ...").
Result<std::optional<ProtocolFacts>> ProtocolFromJson(const nlohmann::ordered_json& j);
// Reads a whole result document (nasperf's own `--json` or `results export --json`):
// {"nasperf": {...}, "runs": [...]}; each run as RunFromJson, its protocol options in the
// document's order. BadInput naming the run ("runs[2].protocol: ...").
Result<std::vector<RunResult>> DocumentFromJson(const nlohmann::ordered_json& doc);

}  // namespace nasperf
