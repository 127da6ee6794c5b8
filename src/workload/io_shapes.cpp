// Choosing the shape generator and setting up the mixed one.
#include "workload/io_shapes.h"

#include <algorithm>

namespace nasperf {

bool UsesFixedShapes(const JobSpec& job) {
  const uint32_t random = RandomPct(job);
  return !HasBlockSizeMix(job) && (random == 0 || random == 100) &&
         (random == 0 || job.dist.kind == OffsetDistribution::Kind::kUniform) &&
         (job.align == 0 || job.align == job.bs);
}

namespace {

// Aligned start positions where every size of the job fits inside the region.
uint64_t PositionCount(uint64_t region_bytes, uint64_t largest_bytes, uint64_t align_bytes) {
  if (align_bytes == 0 || region_bytes < largest_bytes) return 1;
  return (region_bytes - largest_bytes) / align_bytes + 1;
}

}  // namespace

MixedIoShapes::MixedIoShapes(const JobSpec& job, const IoRegion& region)
    : plan_(PlanBlockSizes(job)),
      read_(plan_.read, plan_),
      write_(plan_.write, plan_),
      base_(region.base),
      region_bytes_(region.region_bytes),
      align_(std::max<uint64_t>(AlignmentBytes(job), 1)),
      random_pct_(std::min<uint32_t>(RandomPct(job), 100)),
      budget_(job.time_based ? UINT64_MAX : region.region_bytes),
      size_random_(region.sizes_seed),
      jump_random_(region.jumps_seed),
      positions_(job.dist, PositionCount(region.region_bytes, plan_.largest(), align_), region.offsets_seed) {}

}  // namespace nasperf
