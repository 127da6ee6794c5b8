// BlockPermutation and OffsetGenerator set-up.
#include "workload/offsets.h"

namespace nasperf {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

}  // namespace

BlockPermutation::BlockPermutation(uint64_t n, uint64_t key) : n_(n ? n : 1) {
  int bits = 1;
  while (bits < 64 && (uint64_t{1} << bits) < n_) ++bits;
  half_bits_ = (bits + 1) / 2;
  half_mask_ = (uint64_t{1} << half_bits_) - 1;
  Rekey(key);
}

void BlockPermutation::Rekey(uint64_t key) {
  for (int i = 0; i < 4; ++i) keys_[i] = Mix(key + 0x9E3779B97F4A7C15ull * (i + 1));
}

uint64_t BlockPermutation::Feistel(uint64_t x) const {
  uint64_t left = x >> half_bits_, right = x & half_mask_;
  for (uint64_t key : keys_) {
    uint64_t next = left ^ (Mix(right ^ key) & half_mask_);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

uint64_t BlockPermutation::Map(uint64_t index) const {
  // The Feistel network permutes [0, 2^(2*half_bits)); walking the cycle from an index
  // below n until we land below n again keeps the mapping a bijection of [0, n).
  uint64_t x = index;
  do {
    x = Feistel(x);
  } while (x >= n_);
  return x;
}

OffsetGenerator::OffsetGenerator(bool random, uint64_t base, uint64_t region_bytes, uint64_t block_bytes,
                                 uint64_t seed)
    : random_(random),
      base_(base),
      block_bytes_(block_bytes),
      blocks_(region_bytes / block_bytes ? region_bytes / block_bytes : 1),
      seed_(seed),
      permutation_(blocks_, seed) {}

}  // namespace nasperf
