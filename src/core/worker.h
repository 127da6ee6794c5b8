// One worker thread's I/O loop: keeps the job's queue depth in flight on its engine,
// times every I/O and records it. Nothing in the loop allocates, locks or makes a
// system call beyond the engine's own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "nasperf/engine.h"
#include "nasperf/job.h"
#include "stats/histogram.h"
#include "core/target.h"
#include "workload/buffers.h"
#include "workload/verify_data.h"

namespace nasperf {

// Written by the worker, read by the sampler once a second. One cache line per worker.
struct alignas(64) WorkerProgress {
  std::atomic<uint64_t> read_bytes{0};   // measured bytes so far (after the ramp)
  std::atomic<uint64_t> write_bytes{0};
  std::atomic<bool> done{false};
};

// Set up by the runner before the thread starts; read-only for the worker but `stop`.
struct WorkerContext {
  const JobSpec* job = nullptr;
  uint32_t index = 0;
  uint64_t measure_start_ns = 0;  // completions before this are the ramp: not recorded
  uint64_t deadline_ns = 0;       // 0: size-bound
  std::atomic<bool>* stop = nullptr;
  std::string target_name;        // for error messages
  // --verify: writes carry check data keyed by this seed and are marked in `written`,
  // then read back and checked after the clock stops. 0: no verification.
  uint64_t verify_seed = 0;
  WrittenBlocks* written = nullptr;
  // The run's seed (workload/run_seed.h): this thread's offsets and read/write mix derive
  // from it and its index, and every write is stamped with it.
  uint64_t run_seed = 0;
};

struct WorkerOutput {
  LatencyHistogram read_latency;
  LatencyHistogram write_latency;
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t read_ios = 0, write_ios = 0;
  uint64_t errors = 0;
  uint64_t end_ns = 0;  // last completion (or the fsync after it)
  uint64_t verified_bytes = 0;  // --verify: bytes read back and found as written
  Status error;         // the first failure, which also stopped every worker
};

void RunWorker(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
               WorkerProgress& progress, WorkerOutput& out);

}  // namespace nasperf
