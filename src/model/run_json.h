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

nlohmann::ordered_json RunToJson(const RunResult& run);
// Reads what RunToJson wrote (an agent's runs): every field it knows, defaults for the
// rest; latency histograms do not travel, only their percentiles. BadInput naming the fault.
Result<RunResult> RunFromJson(const nlohmann::json& j);
nlohmann::ordered_json DocumentToJson(const std::vector<RunResult>& runs);

// A run's "protocol" member: {"protocol", "version", "label", "server", "share",
// "options": {...in order}}, or null for a local target.
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
