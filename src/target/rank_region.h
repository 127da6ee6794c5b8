// Many clients on one LUN (issue 20): the region of a shared file or block device that one
// rank of N uses, so that no two ranks touch the same byte and together they span it all.
#pragma once

#include <cstdint>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

// Rank `rank` of `ranks` (0 <= rank < ranks) on `span_bytes`: [b(rank), b(rank + 1)) with
// b(r) = floor(r * span_bytes / ranks) rounded down to `align_bytes` (> 0), and b(ranks)
// = span_bytes rounded down to it. Consecutive ranks' regions abut, so they are disjoint
// and together cover [0, b(ranks)); each starts on an `align_bytes` boundary. Exact for any
// span (128-bit product). Pure.
RankRegion RegionOfRank(uint64_t span_bytes, uint32_t rank, uint32_t ranks, uint64_t align_bytes);

// RegionOfRank, or BadInput naming `what` when a rank's region would be empty ("TARGET:
// /dev/sdb: 16 KiB cannot give 8 ranks a region of at least 4 KiB each").
Result<RankRegion> RankRegionOf(const std::string& what, uint64_t span_bytes, uint32_t rank, uint32_t ranks,
                                uint64_t align_bytes);

}  // namespace nasperf
