// A diagnosis (model/diagnosis.h) as the terminal shows it: its one-sentence summary, the
// waterfall table, the end-to-end figure and the cap, each cause with its evidence, and what was not measured.
#pragma once

#include <string>
#include <vector>

#include "model/diagnosis.h"

namespace nasperf {

// One string per line, without newlines. MB/s = 10^6 B/s; percentages of the path's line
// rate and of the TCP payload maximum for its MTU; a figure not measured shows as "-".
std::vector<std::string> DiagnosisTable(const Diagnosis& d);

}  // namespace nasperf
