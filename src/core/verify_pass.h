// --verify's read-back: after the clock stops, every block a worker wrote is read through
// the same engine (so over the same protocol and connection) and checked word by word.
#pragma once

#include <cstdint>

#include "core/worker.h"

namespace nasperf {

// Reads back each block marked in ctx.written, `depth` at a time, into `buffers`; adds
// the bytes found as written to `verified_bytes`. The first block that differs, fails to
// read or reads short is an Io error naming its offset. Stops early, without error, when
// the run is aborted (Ctrl-C, another worker's failure: core/run_stop.h): the caller
// reports the run as interrupted or failed.
Status VerifyWrittenBlocks(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
                           uint32_t depth, uint64_t& verified_bytes);

}  // namespace nasperf
