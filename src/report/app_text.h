// An application run (`nasperf app ...`, RunResult.app) as the terminal shows it: what was
// copied where, elapsed seconds beside MB/s and files/s, the cache state checked, the
// dataset, the per-operation latency table and the streams. `results show` and the app
// commands print the same lines.
#pragma once

#include <string>
#include <vector>

#include "nasperf/result.h"

namespace nasperf {

// One string per line, without newlines; empty when the run has no app figures. MB/s =
// 10^6 B/s of payload; latency in microseconds; a figure not measured is not printed.
std::vector<std::string> AppTable(const RunResult& run);

// AppTable joined with newlines, then the run's notes and error, as RunTable does.
std::string AppRunTable(const RunResult& run);

}  // namespace nasperf
