// `nasperf tree gen --to`: writes a generated tree (workload/tree_model.h) through an
// AppFileSystem, hashing its names, sizes and contents as it goes, and reads it back to check
// that the target returns exactly what was written. Untimed: this stages and inspects a
// dataset, it measures nothing.
#pragma once

#include <cstdint>
#include <string>

#include "core/app_fs.h"
#include "workload/tree_model.h"

namespace nasperf {

struct TreeWriteResult {
  uint64_t dirs = 0, files = 0, bytes = 0;  // what was written
  std::string digest;                       // DatasetDigest of what was written
};

// Makes every directory (parents first) under `root` ("" = the workspace itself, else a
// directory this call makes first), then every file: created exclusively, its content from
// FillDatasetBytes written in 1 MiB requests, closed. Stops with Interrupted at Ctrl-C
// (between requests) and with the first error; what was made stays for the file system's
// own cleanup (AppFileSystem::RemoveWorkspace).
Result<TreeWriteResult> WriteTree(AppFileSystem& fs, const TreePlan& plan, const std::string& root);

// Reads every file of the plan back from `root` and checks it: its size, every byte
// against FillDatasetBytes, and the digest of what was read. Io naming the first file and
// offset that differ; the digest of what was read otherwise.
Result<std::string> ReadBackTree(AppFileSystem& fs, const TreePlan& plan, const std::string& root);

}  // namespace nasperf
