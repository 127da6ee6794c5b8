// One worker thread's I/O loop: keeps the job's queue depth in flight on its engine,
// times every I/O and records it. Nothing in the loop allocates, locks or makes a
// system call beyond the engine's own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/clock.h"
#include "nasperf/engine.h"
#include "nasperf/job.h"
#include "stats/histogram.h"
#include "core/run_stop.h"
#include "core/target.h"
#include "workload/buffers.h"
#include "workload/verify_data.h"

namespace nasperf {

// Written by the worker, read by the sampler once a second. One cache line per worker.
struct alignas(64) WorkerProgress {
  std::atomic<uint64_t> read_bytes{0};   // measured bytes so far (after the ramp)
  std::atomic<uint64_t> write_bytes{0};
  std::atomic<uint64_t> ios{0};  // measured I/Os so far, both directions (--steady iops)
  std::atomic<bool> done{false};
};

// Set up by the runner before the thread starts; read-only for the worker but `stop`,
// which a worker aborts on its own failure (core/run_stop.h).
struct WorkerContext {
  const JobSpec* job = nullptr;
  uint32_t index = 0;
  uint64_t measure_start_ns = 0;  // completions before this are the ramp: not recorded
  uint64_t deadline_ns = 0;       // 0: size-bound
  RunStop* stop = nullptr;
  std::string target_name;        // for error messages
  // --verify: writes carry check data keyed by this seed and are marked in `written`,
  // then read back and checked after the clock stops. 0: no verification.
  uint64_t verify_seed = 0;
  WrittenBlocks* written = nullptr;
  // The run's seed (workload/run_seed.h): this thread's offsets and read/write mix derive
  // from it and its index, and every write is stamped with it.
  uint64_t run_seed = 0;
  // The runner's clock when it is not CLOCK_MONOTONIC (a test's fake clock): the worker
  // then times its phases and its I/Os on it. nullptr: MonotonicNs(), read inline.
  Clock* clock = nullptr;
};

// The I/Os of one block size of a mix (--bs 4k/50:64k/50), in both directions.
struct SizeCounters {
  LatencyHistogram read_latency, write_latency;
  uint64_t read_bytes = 0, write_bytes = 0, read_ios = 0, write_ios = 0;
  void Record(IoDir dir, uint64_t bytes, uint64_t latency_ns) {
    if (dir == IoDir::kRead) {
      read_latency.Record(latency_ns);
      read_bytes += bytes;
      ++read_ios;
    } else {
      write_latency.Record(latency_ns);
      write_bytes += bytes;
      ++write_ios;
    }
  }
};

struct WorkerOutput {
  LatencyHistogram read_latency;
  LatencyHistogram write_latency;
  // Paced jobs (job.pacing.paced()): the latencies above are from each I/O's intended
  // start, these service times from its submit. Allocated by the runner for paced jobs only.
  std::unique_ptr<LatencyHistogram> read_service, write_service;
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t read_ios = 0, write_ios = 0;
  uint64_t errors = 0;
  uint64_t end_ns = 0;  // last completion (or the fsync after it; paced: or the deadline or stop it idled to)
  uint64_t verified_bytes = 0;  // --verify: bytes read back and found as written
  Status error;         // the first failure, which also stopped every worker
  // Mixed sizes or offsets (MixedIoShapes): per size of workload/block_size_mix.h's plan,
  // sized before the clock starts; empty for a plain job.
  std::vector<SizeCounters> per_size;
};

void RunWorker(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
               WorkerProgress& progress, WorkerOutput& out);

}  // namespace nasperf
