// RegionOfRank.
#include "target/rank_region.h"

#include <string>

#include "base/units.h"

namespace nasperf {
namespace {

uint64_t Boundary(uint64_t span_bytes, uint32_t r, uint32_t ranks, uint64_t align_bytes) {
  const uint64_t at =
      r >= ranks ? span_bytes : static_cast<uint64_t>(static_cast<unsigned __int128>(span_bytes) * r / ranks);
  return at / align_bytes * align_bytes;
}

}  // namespace

RankRegion RegionOfRank(uint64_t span_bytes, uint32_t rank, uint32_t ranks, uint64_t align_bytes) {
  if (ranks == 0) ranks = 1;
  if (align_bytes == 0) align_bytes = 1;
  const uint64_t begin = Boundary(span_bytes, rank, ranks, align_bytes);
  const uint64_t end = Boundary(span_bytes, rank + 1, ranks, align_bytes);
  return RankRegion{begin, end > begin ? end - begin : 0};
}

Result<RankRegion> RankRegionOf(const std::string& what, uint64_t span_bytes, uint32_t rank, uint32_t ranks,
                                uint64_t align_bytes) {
  for (uint32_t r = 0; r < ranks; ++r)
    if (RegionOfRank(span_bytes, r, ranks, align_bytes).bytes == 0)
      return Status::BadInput(what + ": " + FormatSize(span_bytes) + " cannot give " + std::to_string(ranks) +
                              " ranks a region of at least " + FormatSize(align_bytes) + " each");
  return RegionOfRank(span_bytes, rank, ranks, align_bytes);
}

}  // namespace nasperf
