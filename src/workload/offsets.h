// Where the next I/O goes: sequential, or a random permutation of the blocks that visits
// each block exactly once per pass (so a size-bound random job moves its file once, like
// fio's random map, but with no map to allocate). Plain arithmetic; nothing allocates.
#pragma once

#include <cstdint>

namespace nasperf {

// xorshift64*: fast, good enough for choosing offsets and read/write mixes.
class FastRandom {
 public:
  explicit FastRandom(uint64_t seed) : state_(seed ? seed : 0x9E3779B97F4A7C15ull) {}
  uint64_t Next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }
  // Uniform in [0, bound) without modulo bias worth mentioning for bound << 2^64.
  uint64_t Below(uint64_t bound) { return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * bound) >> 64); }

 private:
  uint64_t state_;
};

// A bijection of [0, n): a balanced Feistel network over the next even power of two,
// with cycle-walking to stay inside [0, n).
class BlockPermutation {
 public:
  BlockPermutation(uint64_t n, uint64_t key);
  uint64_t Map(uint64_t index) const;
  void Rekey(uint64_t key);

 private:
  uint64_t Feistel(uint64_t x) const;
  uint64_t n_;
  int half_bits_;
  uint64_t half_mask_;
  uint64_t keys_[4];
};

class OffsetGenerator {
 public:
  // Offsets are block-aligned within [base, base + region_bytes); `seed` makes threads differ.
  OffsetGenerator(bool random, uint64_t base, uint64_t region_bytes, uint64_t block_bytes, uint64_t seed);
  uint64_t blocks() const { return blocks_; }
  uint64_t Next() {
    uint64_t block = random_ ? permutation_.Map(position_) : position_;
    if (++position_ == blocks_) {  // a pass is over: start again, in a new order
      position_ = 0;
      if (random_) permutation_.Rekey(++pass_ * 0x9E3779B97F4A7C15ull ^ seed_);
    }
    return base_ + block * block_bytes_;
  }

 private:
  bool random_;
  uint64_t base_, block_bytes_, blocks_, seed_;
  uint64_t position_ = 0, pass_ = 0;
  BlockPermutation permutation_;
};

}  // namespace nasperf
