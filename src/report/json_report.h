// The JSON result document of DESIGN.md: {"nasperf": {...}, "runs": [...]}, and the job's
// JSON form that the results database stores.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

nlohmann::ordered_json JobToJson(const JobSpec& job, const std::string& engine);
// Reads what JobToJson wrote; BadInput naming the field when something is missing or wrong.
Result<JobSpec> JobFromJson(const nlohmann::json& j);

nlohmann::ordered_json RunToJson(const RunResult& run);
// Reads what RunToJson wrote (an agent's runs): every field it knows, defaults for the
// rest; latency histograms do not travel, only their percentiles. BadInput naming the fault.
Result<RunResult> RunFromJson(const nlohmann::json& j);
nlohmann::ordered_json DocumentToJson(const std::vector<RunResult>& runs);

}  // namespace nasperf
