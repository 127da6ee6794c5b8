// What a run's writes carry, measured before the clock: one write's block, filled and
// stamped as the worker does it, compressed with zstd, so that the ratio reported is the
// ratio achieved (compressible:N asks for one; the stamps and the block size decide it).
#pragma once

#include <cstdint>

#include "nasperf/job.h"
#include "nasperf/result.h"

namespace nasperf {

// Largest sample compressed: one block, cut at 1 MiB (a few milliseconds of zstd).
inline constexpr uint64_t kMaxCompressSampleBytes = 1 << 20;

// `verify`: --verify's check data (verify_data.h) rather than `pattern`. Allocates; call
// it outside the measured time.
DataFacts DescribeWriteData(const BufferPattern& pattern, bool verify, uint64_t block_bytes, uint64_t run_seed);

// Bytes in / bytes out of zstd at its default level; 0 for an empty input or a failure.
double ZstdRatio(const std::byte* data, uint64_t bytes);

}  // namespace nasperf
