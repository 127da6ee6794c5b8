// StagedBytes: the tree helper's dataset bytes (workload/dataset_bytes.h), so what the
// photo album, the office and the fill write is the same kind of data every workload stages.
#include "suite/app/app_bytes.h"

#include "workload/dataset_bytes.h"

namespace nasperf {

void StagedBytes(uint64_t seed, uint64_t file, uint64_t offset, std::span<uint8_t> out) {
  FillDatasetBytes(reinterpret_cast<std::byte*>(out.data()), out.size(), seed, file, offset);
}

}  // namespace nasperf
