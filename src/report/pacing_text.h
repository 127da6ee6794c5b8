// The run table's lines for a paced run: that its latencies are from each I/O's intended
// start, the service times from the submit beside them, and the target rate against the
// achieved one ("could not sustain 5000 IOPS: 3120 achieved (37.6 % short)").
#pragma once

#include <string>

#include "nasperf/result.h"

namespace nasperf {

// Empty for a run without pacing facts.
std::string PacingText(const RunResult& run);

}  // namespace nasperf
