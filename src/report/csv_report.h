// CSV export: one row per run and direction, with units in the column names.
#pragma once

#include <string>
#include <vector>

#include "nasperf/result.h"

namespace nasperf {

std::string RunsToCsv(const std::vector<RunResult>& runs);

}  // namespace nasperf
