// repeats_json of the runs table: written as the JSON document writes repeats, read in
// every form it has had since schema 1.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "nasperf/result.h"

namespace nasperf {

// Each repeat as the JSON document writes it (RepeatToJson), both directions always: the
// store keeps every figure whatever the run's directions.
nlohmann::json RepeatsToStore(const std::vector<RepeatFigures>& repeats);

// Reads every form repeats_json has had: RepeatToJson's (schema 7), the flat objects of
// schemas 3 to 6, and schemas 1 and 2's bare total MB/s, which goes to the direction the
// run did. A damaged entry is left out: the run's own figures are still good.
std::vector<RepeatFigures> RepeatsFromStore(const nlohmann::json& stored, const RunResult& run);

}  // namespace nasperf
