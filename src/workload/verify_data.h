// Check data for --verify: every 8-byte word's value is a function of its byte offset in
// the file (or device) and a per-run seed, so any block can be generated and checked on
// its own, whatever the block size, queue depth or order the job wrote it in. Like fio's
// verify, but position-keyed: a block written to the wrong offset, a write that never
// landed (old data from an earlier run has another seed), a torn or shifted transfer and
// a flipped bit all fail the check. The data is incompressible and never repeats, so
// compressing or deduplicating storage cannot shortcut it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace nasperf {

// Fills `bytes` at `data` with the check data for file offset `offset` (both multiples of 8).
void FillVerifyData(std::byte* data, size_t bytes, uint64_t offset, uint64_t seed);

// The file offset of the first 8-byte word of `data` (read from `offset`) that is not the
// check data; nullopt when every word is.
std::optional<uint64_t> FirstMismatch(const std::byte* data, size_t bytes, uint64_t offset, uint64_t seed);

// A seed no earlier run used (time and address-space entropy).
uint64_t NewVerifySeed();

// Which blocks of a region a worker wrote: one bit per block, allocated before the run.
class WrittenBlocks {
 public:
  WrittenBlocks() = default;
  explicit WrittenBlocks(uint64_t blocks) : bits_((blocks + 63) / 64, 0), blocks_(blocks) {}
  uint64_t blocks() const { return blocks_; }
  void Mark(uint64_t block) { bits_[block >> 6] |= uint64_t{1} << (block & 63); }
  bool Written(uint64_t block) const { return (bits_[block >> 6] >> (block & 63)) & 1; }
  uint64_t Count() const;

 private:
  std::vector<uint64_t> bits_;
  uint64_t blocks_ = 0;
};

}  // namespace nasperf
