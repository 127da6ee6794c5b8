// What every imported run must satisfy before it is stored: the job within the limits
// `nasperf run` enforces, and figures that a real measurement could have produced
// (finite, not negative, below physical bounds). Imports are other tools' files and
// exported documents, edited or not; the store and the charts trust what is in them.
#pragma once

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

// 10 TB/s: above any storage or network one host moves; 1.8e308 B/s is a broken file.
constexpr double kMaxImportedMbPerS = 1e7;

// BadInput naming the field ("job: --bs: ...", "read.mb_per_s: inf is not ..."), without
// the file or the run: the caller says which.
Status CheckImportedRun(const RunResult& run);

}  // namespace nasperf
