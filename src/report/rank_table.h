// The many-clients lines of `run`'s table: the ranks, the start skew, the stonewall
// window, first- and last-done figures, each rank's own figures and the spread.
#pragma once

#include <string>

#include "nasperf/result.h"

namespace nasperf {

// Empty for a run of one process (no run.cluster).
std::string RanksText(const RunResult& run);

// One line of the same facts for a suite's row (quick under mpirun): "SEQ1M Q8T1 read:
// 4 ranks, start skew 85 us, stonewall 1.02 s, first done 1.02 s, last done 1.03 s,
// spread 4.2 %". Empty without run.cluster.
std::string RanksLine(const std::string& label, const RunResult& run);

}  // namespace nasperf
