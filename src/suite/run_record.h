// The record of a run about to start, as a suite hands it to its RunSink.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/target.h"
#include "nasperf/job.h"
#include "nasperf/result.h"

namespace nasperf {

// Labels, target, job, resolved engine, and the inventory (gathered once per command: it
// does not change between tests).
RunResult NewRunRecord(const std::string& name, const std::map<std::string, std::string>& tags, const Target& target,
                       const JobSpec& job, const nlohmann::ordered_json& inventory);

}  // namespace nasperf
