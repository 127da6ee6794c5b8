// The job: one workload as plain, validated data. The same struct goes to engines,
// the JSON document and (later) agents and the results database.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

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

// One entry of a block-size mix (--bs 4k/30:64k/20:1m/50, fio's bssplit order):
// `weight_pct` % of the I/Os move `bytes` each.
struct BlockSizeShare {
  uint64_t bytes = 0;
  uint32_t weight_pct = 0;
  bool operator==(const BlockSizeShare&) const = default;
};

// Where random I/Os land (--dist). Uniform visits every block once per pass; the others
// draw with repetition, as their names promise (workload/offsets.h).
struct OffsetDistribution {
  enum class Kind { kUniform, kZipf, kPareto, kHotspot } kind = Kind::kUniform;
  double theta = 0;       // zipf:THETA (> 0); pareto:H (0 < H < 1)
  double access_pct = 0;  // hotspot:ACCESS%/REGION%: ACCESS % of random I/Os land in ...
  double region_pct = 0;  // ... the first REGION % of the file
  bool operator==(const OffsetDistribution&) const = default;
};
std::string ToString(const OffsetDistribution& dist);  // "uniform", "zipf:1.2", "hotspot:80/20"
Result<OffsetDistribution> ParseOffsetDistribution(const std::string& text);

// Paced I/O (--rate, --rate-iops, --think, --burst). Rates are the job's total over all
// its threads (each thread paces 1/threads of it): an open-loop schedule on which every
// I/O has an intended start; latency is timed from it (service time from the actual
// submit). Think time is a closed loop (core/think_gate.h): after every `burst` I/Os the
// thread drains its queue, then idles think_s, as fio's thinktime and Iometer's transfer
// delay do; without a rate, latency is from the submit.
struct Pacing {
  double rate_mb_per_s = 0;  // 0: not paced by bytes (MB = 10^6 B)
  double rate_iops = 0;      // 0: not paced by I/Os
  double think_s = 0;        // idle after every `burst` I/Os have completed
  uint32_t burst = 1;        // I/Os per burst (Iometer's burst length, fio's thinktime_blocks)
  bool paced() const { return scheduled() || think_s > 0; }
  // A rate was asked: I/Os have intended starts and the run a target to sustain.
  bool scheduled() const { return rate_mb_per_s > 0 || rate_iops > 0; }
  bool operator==(const Pacing&) const = default;
};

// --steady iops:2%:30s: stop once the last `window_s` of per-second figures lie within
// `tolerance_pct` of their mean (fio's steadystate).
struct SteadyRule {
  enum class Metric { kNone, kIops, kBandwidth } metric = Metric::kNone;
  double tolerance_pct = 0;
  double window_s = 0;
  bool operator==(const SteadyRule&) const = default;
};

struct JobSpec {
  AccessPattern rw = AccessPattern::kRead;
  int read_mix_pct = 50;        // for rw/randrw: share of I/Os that are reads, 0..100
  uint64_t bs = 1 << 20;        // bytes per I/O
  uint32_t qd = 1;              // I/Os in flight per thread
  uint32_t threads = 1;
  // --shared-file: every thread on one file, over the same `size` bytes (fio's clones of a
  // job with filename=, Iometer's workers on one disk); false: each its own file or region.
  bool shared_file = false;
  // The files (or regions) the threads' I/O goes to: one when shared, else one each.
  uint32_t regions() const { return shared_file ? 1 : threads; }
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

  // Workloads as users write them (issue 19). Defaults keep the job above unchanged.
  // Block-size mixes: empty = every I/O is `bs`. When a mix is set, `bs` holds its largest
  // size (buffers are sized by it). bs_read / bs_write: per direction, empty = bs_split.
  std::vector<BlockSizeShare> bs_split, bs_read, bs_write;
  // Iometer's % random: the share of I/Os that jump; the rest continue sequentially.
  // nullopt: from rw (100 for rand*, 0 otherwise).
  std::optional<uint32_t> random_pct;
  OffsetDistribution dist;
  uint64_t align = 0;  // offsets are multiples of this; 0 = the smallest block size
  Pacing pacing;
  SteadyRule steady;
  // --repeat-until CI%: repeat (up to `repeat`) until the 95 % interval's half-width is
  // under this % of the median. 0: run exactly `repeat` times.
  double repeat_until_ci_pct = 0;
  // Many clients (mpirun, --stonewall): stop every rank when the first finishes.
  bool stonewall = true;

  // Its checks are model/job_validate.h (ValidateJob, ValidateJobLimits): they read the
  // job option descriptors, which live above this contract.
};

// CrystalDiskMark's name for a workload: "SEQ1M Q8T1", "RND4K Q32T1". quick's tests use
// it, imports of CrystalDiskMark files parse it, and comparisons line plain runs up with it.
std::string SuiteTestLabel(bool random, uint64_t bs, uint32_t qd, uint32_t threads);

}  // namespace nasperf
