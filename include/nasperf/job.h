// The job: one workload as plain, validated data. The same struct goes to engines,
// the JSON document and (later) agents and the results database.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

enum class AccessPattern { kRead, kWrite, kRandRead, kRandWrite, kReadWrite, kRandReadWrite };

const char* ToString(AccessPattern rw);
std::optional<AccessPattern> ParseAccessPattern(const std::string& text);
bool IsRandom(AccessPattern rw);
bool DoesReads(AccessPattern rw);
bool DoesWrites(AccessPattern rw);

// What a write buffer holds. Generated once per worker, never per I/O.
struct BufferPattern {
  enum class Kind { kRandom, kZero, kCompressible } kind = Kind::kRandom;
  // For kCompressible: percentage (0..100) of each block that is zeros.
  int compressible_pct = 0;
};
std::string ToString(const BufferPattern& pattern);
Result<BufferPattern> ParseBufferPattern(const std::string& text);

struct JobSpec {
  AccessPattern rw = AccessPattern::kRead;
  int read_mix_pct = 50;        // for rw/randrw: share of I/Os that are reads, 0..100
  uint64_t bs = 1 << 20;        // bytes per I/O
  uint32_t qd = 1;              // I/Os in flight per thread
  uint32_t threads = 1;
  uint64_t size = 1ull << 30;   // bytes per thread (file size for file targets)
  double time_s = 0;            // time limit in seconds after the ramp; 0 = none
  bool time_based = false;      // true: loop over the file until time_s; false: one pass
                                // of the file per thread, cut short by time_s if set
  double ramp_s = 0;            // seconds at the start excluded from results
  bool direct = false;          // O_DIRECT
  bool fsync = false;           // writes end with fsync, inside the measured time
  bool verify = false;          // writes carry check data, read back after the run
  std::string engine = "auto";  // psync | io_uring | null | auto
  BufferPattern pattern;
  uint32_t repeat = 1;
  // The run seed: every thread's offsets, read/write mix and buffer content derive from
  // it. nullopt: each run draws a fresh one (the runner stores it here in the result's
  // job, so the stored job reproduces the run). With repeat > 1 it is the series' seed:
  // repeat 0 uses it, repeat i a seed derived from it and i (workload/run_seed.h).
  // At most 2^53 - 1. --verify's check data always takes a fresh seed of its own.
  std::optional<uint64_t> seed;

  // Checks what can be checked without looking at the target.
  Status Validate() const;
  // The numeric limits of Validate (block size, depth, threads, mix, size, times, repeat)
  // without the engine checks: for jobs other tools or other nasperf versions ran, as in
  // an imported result document. `has_file`: false for a network test (no file, size 0).
  Status ValidateLimits(bool has_file) const;
};

// CrystalDiskMark's name for a workload: "SEQ1M Q8T1", "RND4K Q32T1". quick's tests use
// it, imports of CrystalDiskMark files parse it, and comparisons line plain runs up with it.
std::string SuiteTestLabel(bool random, uint64_t bs, uint32_t qd, uint32_t threads);

// Engine chosen for "auto": io_uring when qd > 1 and the kernel allows it.
std::string ResolveEngineName(const JobSpec& job, bool is_null_target);

}  // namespace nasperf
