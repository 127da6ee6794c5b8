// The bytes the photo album, the office and the fill stage: workload/dataset_bytes's
// (unique per 4 KiB block, seeded, never zeros, so no dedupe, compression or zero
// detection can serve them), behind one function the workloads call.
#pragma once

#include <cstdint>
#include <span>

namespace nasperf {

// Fills `out` with the bytes of file `file` at byte `offset` for `seed`.
void StagedBytes(uint64_t seed, uint64_t file, uint64_t offset, std::span<uint8_t> out);

}  // namespace nasperf
