// The rules of `nasperf diagnose` (issue 17; docs/diagnose.md lists each with its evidence
// and threshold): from the evidence measured layer by layer, the waterfall of ceilings,
// the layer that caps the end-to-end figure and the causes named. Pure: no I/O, so every
// rule is tested on recorded evidence.
#pragma once

#include "model/diagnosis.h"

namespace nasperf {

// Fills everything of a Diagnosis but its id, started_at and command_line.
Diagnosis Diagnose(const Evidence& evidence);

}  // namespace nasperf
