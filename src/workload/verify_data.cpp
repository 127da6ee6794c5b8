// splitmix64 over the word index: one multiply-xorshift chain per 8 bytes, a few GB/s.
#include "workload/verify_data.h"

#include <bit>
#include <chrono>
#include <cstring>
#include <random>

namespace nasperf {
namespace {

inline uint64_t WordAt(uint64_t word_index, uint64_t seed) {
  uint64_t z = seed + (word_index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

void FillVerifyData(std::byte* data, size_t bytes, uint64_t offset, uint64_t seed) {
  const uint64_t first = offset / 8;
  for (size_t i = 0; i < bytes / 8; ++i) {
    uint64_t word = WordAt(first + i, seed);
    std::memcpy(data + i * 8, &word, sizeof word);
  }
}

std::optional<uint64_t> FirstMismatch(const std::byte* data, size_t bytes, uint64_t offset, uint64_t seed) {
  const uint64_t first = offset / 8;
  for (size_t i = 0; i < bytes / 8; ++i) {
    uint64_t word;
    std::memcpy(&word, data + i * 8, sizeof word);
    if (word != WordAt(first + i, seed)) return offset + i * 8;
  }
  return std::nullopt;
}

uint64_t NewVerifySeed() {
  std::random_device entropy;
  uint64_t seed = (uint64_t{entropy()} << 32) ^ entropy();
  return seed ^ static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

uint64_t WrittenBlocks::Count() const {
  uint64_t n = 0;
  for (uint64_t word : bits_) n += static_cast<uint64_t>(std::popcount(word));
  return n;
}

}  // namespace nasperf
