// Staging for the photo-album and office workloads: seeded file sizes and whole files
// written from StagedBytes, untimed, before a workload's clock starts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/app_fs.h"
#include "nasperf/app_result.h"
#include "nasperf/status.h"

namespace nasperf {

// `count` sizes between `min_bytes` and `max_bytes` from `seed`: uniform when !log_uniform
// (phone JPEGs), log-uniform otherwise (documents: many small, a few large).
std::vector<uint64_t> SeededSizes(uint64_t seed, uint32_t count, uint64_t min_bytes, uint64_t max_bytes,
                                  bool log_uniform);

// Creates `rel` (exclusive) and writes `bytes` of file `file`'s StagedBytes in requests of
// buffer.size(); `sync` makes it durable before close. Interrupted on Ctrl-C.
Status WriteStagedFile(AppFileSystem& fs, const std::string& rel, uint64_t bytes, uint64_t seed, uint64_t file,
                       std::vector<uint8_t>& buffer, bool sync);

// BadInput naming the target when staging `bytes` would leave less than 5 % of its volume free.
Status CheckRoomFor(AppFileSystem& fs, uint64_t bytes);

// The dataset record of staged files: generator, seed, count, bytes and the achieved
// size statistics (nearest rank). `dirs` folders held them.
AppDataset StagedDataset(const std::string& generator, uint64_t seed, const std::vector<uint64_t>& sizes,
                         uint64_t dirs);

}  // namespace nasperf
