// Block sizes of a mixed-size job (--bs 4k/30:64k/20:1m/50, --bs-read, --bs-write): the
// sizes each direction draws from, and the draw itself, a table lookup per I/O.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nasperf/job.h"
#include "workload/offsets.h"

namespace nasperf {

// At most this many sizes in one mix (fio allows 64; a reviewer's specs hold a handful, and
// each size costs every thread two latency histograms).
inline constexpr size_t kMaxBlockSizeShares = 16;

// Whether the job mixes block sizes (--bs A/W:B/W, --bs-read, --bs-write).
inline bool HasBlockSizeMix(const JobSpec& job) {
  return !job.bs_split.empty() || !job.bs_read.empty() || !job.bs_write.empty();
}
// The share of the job's I/Os that jump, in %: --random when given, else 100 for the
// rand* patterns and 0 for the others. Offsets and labels both read it.
inline uint32_t RandomPct(const JobSpec& job) {
  if (job.random_pct) return *job.random_pct;
  return IsRandom(job.rw) ? 100 : 0;
}

// What a job's directions draw from. `sizes` is every distinct size, in the order of the
// mixes (bs_split, then bs_read's and bs_write's new ones): the index of RunResult::per_size.
// A direction without a mix of its own uses bs_split, and without one either, {bs, 100 %}.
struct BlockSizePlan {
  std::vector<uint64_t> sizes;
  std::vector<BlockSizeShare> read, write;
  uint64_t largest() const;
  uint64_t smallest() const;
  size_t IndexOf(uint64_t bytes) const;  // sizes.size() when absent
};
BlockSizePlan PlanBlockSizes(const JobSpec& job);

// "4k/30:64k/20:1m/50" (fio's bssplit order: size/weight, entries joined by ':') into
// shares; a plain size ("4k") gives one share of 100 %. Errors name `option`. Limits
// (weights summing to 100, sizes 1 B..1 GiB) are checked by CheckBlockSizeMix.
Result<std::vector<BlockSizeShare>> ParseBlockSizeMix(const std::string& text, const std::string& option);
// Back to that text: sizes in k/m/g when whole, else bytes ("4k/30:64k/20:1m/50").
std::string BlockSizeMixText(std::span<const BlockSizeShare> shares);
// The limits of one mix, naming `option`: 1..kMaxBlockSizeShares entries, each size
// 1 B..1 GiB and given once, weights 1..100 summing to 100.
Status CheckBlockSizeMix(std::span<const BlockSizeShare> shares, const std::string& option);

// After parsing: `bs` becomes the largest size the job's directions draw (buffers are
// sized by it), and a plain --bs that a direction still uses becomes a mix of one, so that
// raising `bs` does not change what that direction runs. Nothing for a job without mixes.
void SettleBlockSizes(JobSpec& job);

// The largest block size the job's directions use (buffers are sized by it), and the
// offset alignment it runs with (--align, else its smallest size).
uint64_t LargestBlockBytes(const JobSpec& job);
uint64_t AlignmentBytes(const JobSpec& job);

// One direction's draw. Weights are whole percent summing to 100 (validated), so a
// 100-entry table from a percentile to its size makes a draw one random number and one
// load: no search, no allocation.
class BlockSizeMix {
 public:
  struct Pick {
    uint32_t bytes = 0;
    uint8_t size_index = 0;  // into BlockSizePlan::sizes
  };
  BlockSizeMix(std::span<const BlockSizeShare> shares, const BlockSizePlan& plan);
  Pick Draw(FastRandom& random) const { return by_pct_[random.Below(100)]; }

 private:
  std::array<Pick, 100> by_pct_{};
};

}  // namespace nasperf
