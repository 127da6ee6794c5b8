// What diagnose could not measure, and what that leaves unchecked: one line per gap.
#pragma once

#include <string>
#include <vector>

#include "model/diagnosis.h"

namespace nasperf::diagnose {

// The orchestrator's own lines (Evidence::not_measured) first, then the gaps the rules
// need filled; no line twice.
std::vector<std::string> NotMeasured(const Evidence& e);

// The exact line for a run without an agent (the wording; tests pin it).
inline constexpr const char* kNoAgentLine = "no agent: NAS disks, CPU and interrupts not measured";

}  // namespace nasperf::diagnose
