// Run seeds: every run and every repeat draws a fresh one, so no cache, dedupe or
// nop-write can serve a repeat with what an earlier one did, and `--seed` gives one back
// to reproduce a run exactly. Each stream a run needs (a thread's offsets, its read/write
// mix, its buffer content) is derived from the run seed with splitmix64.
#pragma once

#include <cstdint>

namespace nasperf {

// Seeds stay below 2^53 so that the JSON number is exact in every reader (jq and
// JavaScript parse numbers as doubles); 53 bits are plenty to keep runs apart.
inline constexpr uint64_t kMaxSeed = (uint64_t{1} << 53) - 1;

// splitmix64's finaliser: a bijection of 64-bit values that spreads every input bit.
inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A seed no earlier run drew: getrandom(2), or clock and address entropy if it fails.
// Never 0 (0 reads as "no seed" in old documents). In [1, kMaxSeed].
uint64_t NewRunSeed();

// The seed of repeat `repeat` (0-based) of a series whose seed is `series_seed`: repeat 0
// uses the series seed itself, so `--seed S --repeat 1` reproduces the first repeat of
// `--seed S --repeat N`; later repeats use a seed mixed from S and the repeat number.
uint64_t RepeatSeed(uint64_t series_seed, uint32_t repeat);

// The independent streams one worker thread draws from a run seed.
// kSizes: each I/O's block size in a mix; kJumps: whether an I/O jumps (--random PCT).
enum class SeedStream : uint64_t { kOffsets = 1, kMix = 2, kBuffers = 3, kSizes = 4, kJumps = 5 };
uint64_t StreamSeed(uint64_t run_seed, SeedStream stream, uint32_t thread);

}  // namespace nasperf
