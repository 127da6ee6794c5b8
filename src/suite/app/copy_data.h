// The bytes an application workload stages and checks: file N's bytes at offset O, from the
// run's seed — workload/dataset_bytes' FillDatasetBytes (every 4 KiB block stamped and
// unique, never zeros), so that a copied tree is the generator's and its digest holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "suite/app/copy_loop.h"

namespace nasperf {

// Fills `bytes` bytes at `out` with file `file_index`'s content at `offset`. Allocates nothing.
void FillCopyBytes(uint64_t seed, uint64_t file_index, uint64_t offset, void* out, size_t bytes);

// The dataset digest (workload/dataset_bytes.h DatasetDigest) of what a copy of generated
// files writes: `dirs`, then each file's name, size and FillCopyBytes content under `seed`.
// For a generated tree it equals the generator's TreeDigest. One pass of generation and
// SHA-256 over every byte (seconds for gigabytes): run it before the clock. Interrupted
// as soon as Ctrl-C (or a rank's SIGTERM) is requested.
Result<std::string> GeneratedCopyDigest(const std::vector<std::string>& dirs, const std::vector<CopyFile>& files,
                                        uint64_t seed);

// BadInput when `fs` (nullptr: the null end, always enough) has less than `bytes` free;
// `what` names the end in it ("file-copy: destination").
Status NeedRoom(AppFileSystem* fs, uint64_t bytes, const std::string& what);

}  // namespace nasperf
