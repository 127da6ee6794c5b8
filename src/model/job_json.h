// The job's JSON form: the "job" object of the result document (DESIGN.md) and what the
// results database stores for each run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

// The job object of the document; `qd_run` (RunResult::qd_run) is added as "qd_run" when
// known (non-zero), beside the "qd" that was asked.
nlohmann::ordered_json JobToJson(const JobSpec& job, const std::string& engine, uint32_t qd_run = 0);
// Reads what JobToJson wrote; BadInput naming the field when something is missing or wrong.
Result<JobSpec> JobFromJson(const nlohmann::json& j);
// The job object's "qd_run"; 0 when it is absent or not a queue depth (older runs, imports).
uint32_t QdRunFromJson(const nlohmann::json& job);

}  // namespace nasperf
