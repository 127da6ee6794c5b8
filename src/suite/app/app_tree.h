// The tree dir-copy copies when no --source is given: the generator's (workload/tree_model.h)
// preset scaled and seeded, as a CopyTree with its dataset record.
#pragma once

#include <string>

#include "suite/app/dir_copy.h"

namespace nasperf {

// BadInput naming the preset or the scale when the generator refuses them.
Result<CopyTree> GeneratedCopyTree(const std::string& preset, double scale, uint64_t seed);

}  // namespace nasperf
