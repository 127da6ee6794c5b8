// The offset and length of a worker's next I/O. Two kinds, picked once per run and used by
// the worker loop as a template argument (no virtual call, no branch on the kind per I/O):
// FixedIoShapes is the plain job — one block size, all sequential or every block once in
// random order — exactly as fast as it always was; MixedIoShapes adds block-size mixes,
// Iometer's % random, the distributions and an alignment finer than the block size.
#pragma once

#include <cstdint>

#include "nasperf/engine.h"
#include "nasperf/job.h"
#include "workload/block_size_mix.h"
#include "workload/offset_distribution.h"
#include "workload/offsets.h"

namespace nasperf {

struct IoShape {
  uint64_t offset = 0;
  uint32_t bytes = 0;
  uint8_t size_index = 0;  // into BlockSizePlan::sizes (0 for a fixed size)
};

// Where one worker's I/Os go: [base, base + region_bytes) of its file, and its seeds.
struct IoRegion {
  uint64_t base = 0, region_bytes = 0;
  uint64_t offsets_seed = 0, sizes_seed = 0, jumps_seed = 0;
};

// Whether the job is a plain one FixedIoShapes runs: no mix, all or no I/Os random, the
// uniform permutation, and offsets aligned to the block size.
bool UsesFixedShapes(const JobSpec& job);

class FixedIoShapes {
 public:
  static constexpr bool kMixed = false;
  FixedIoShapes(const JobSpec& job, const IoRegion& region)
      : offsets_(RandomPct(job) == 100, region.base, region.region_bytes, job.bs, region.offsets_seed),
        to_issue_(job.time_based ? UINT64_MAX : offsets_.blocks()),
        bytes_(static_cast<uint32_t>(job.bs)) {}
  uint32_t fixed_bytes() const { return bytes_; }
  // A size-bound pass is every block once; false when it is over.
  bool Next(IoDir, IoShape& io) {
    if (issued_ == to_issue_) return false;
    ++issued_;
    io.offset = offsets_.Next();
    io.bytes = bytes_;
    return true;
  }

 private:
  OffsetGenerator offsets_;
  uint64_t to_issue_, issued_ = 0;
  uint32_t bytes_;
};

// A size-bound pass moves at most region_bytes: I/Os are issued until the next one drawn
// would take the bytes past it (so a pass moves more than region_bytes - the largest
// size, and never more than region_bytes, like a plain job's whole blocks). A sequential
// I/O continues where the previous one ended, back at the start when it would not fit; a
// jump goes to an aligned position where the largest size still fits.
class MixedIoShapes {
 public:
  static constexpr bool kMixed = true;
  MixedIoShapes(const JobSpec& job, const IoRegion& region);
  uint32_t fixed_bytes() const { return 0; }
  uint64_t positions() const { return positions_.positions(); }
  bool Next(IoDir dir, IoShape& io) {
    if (done_) return false;
    const BlockSizeMix::Pick pick = (dir == IoDir::kRead ? read_ : write_).Draw(size_random_);
    if (budget_ - moved_ < pick.bytes) {
      done_ = true;
      return false;
    }
    uint64_t at = next_;
    if (random_pct_ == 100 || (random_pct_ > 0 && jump_random_.Below(100) < random_pct_)) {
      at = positions_.Next() * align_;
    } else if (at + pick.bytes > region_bytes_) {
      at = 0;
    }
    next_ = at + pick.bytes;
    moved_ += pick.bytes;
    io.offset = base_ + at;
    io.bytes = pick.bytes;
    io.size_index = pick.size_index;
    return true;
  }

 private:
  BlockSizePlan plan_;
  BlockSizeMix read_, write_;
  uint64_t base_, region_bytes_, align_;
  uint32_t random_pct_;
  uint64_t budget_, moved_ = 0, next_ = 0;
  bool done_ = false;
  FastRandom size_random_, jump_random_;
  RandomPositions positions_;
};

}  // namespace nasperf
