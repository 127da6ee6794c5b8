// The JSON result document of DESIGN.md: {"nasperf": {...}, "runs": [...]}.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "nasperf/result.h"

namespace nasperf {

nlohmann::json RunToJson(const RunResult& run);
nlohmann::json DocumentToJson(const std::vector<RunResult>& runs);

}  // namespace nasperf
