// Drawing and deriving run seeds.
#include "workload/run_seed.h"

#include <sys/random.h>

#include <chrono>

namespace nasperf {

uint64_t NewRunSeed() {
  uint64_t seed = 0;
  if (getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed)) {
    // Only before the kernel's pool is initialised (early boot) or under seccomp: the
    // clock and an address still make two runs differ.
    static int anchor;
    seed = SplitMix64(static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                      reinterpret_cast<uintptr_t>(&anchor));
  }
  seed &= kMaxSeed;
  return seed ? seed : 1;
}

uint64_t RepeatSeed(uint64_t series_seed, uint32_t repeat) {
  if (repeat == 0) return series_seed;
  uint64_t seed = SplitMix64(series_seed ^ SplitMix64(repeat)) & kMaxSeed;
  return seed ? seed : 1;
}

uint64_t StreamSeed(uint64_t run_seed, SeedStream stream, uint32_t thread) {
  // Two rounds: the first separates streams, the second threads, so that neighbouring
  // run seeds, streams or thread indexes give unrelated sequences.
  return SplitMix64(SplitMix64(run_seed ^ (static_cast<uint64_t>(stream) << 56)) + thread);
}

}  // namespace nasperf
