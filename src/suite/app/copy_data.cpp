// FillCopyBytes: the dataset's bytes (workload/dataset_bytes.h), under the name the copy loops use.
#include "suite/app/copy_data.h"

#include "base/signals.h"
#include "base/units.h"
#include "workload/dataset_bytes.h"

namespace nasperf {

void FillCopyBytes(uint64_t seed, uint64_t file_index, uint64_t offset, void* out, size_t bytes) {
  FillDatasetBytes(static_cast<std::byte*>(out), bytes, seed, file_index, offset);
}

Result<std::string> GeneratedCopyDigest(const std::vector<std::string>& dirs, const std::vector<CopyFile>& files,
                                        uint64_t seed) {
  DatasetDigest digest;
  for (const std::string& d : dirs) digest.AddDir(d);
  std::vector<std::byte> scratch(1u << 20);
  for (const CopyFile& f : files) {
    digest.AddFile(f.rel, f.size_bytes);
    if (!digest.UpdateGenerated(seed, f.index, f.size_bytes, scratch.data(), scratch.size(), InterruptRequested))
      return Status::Interrupted();
  }
  return digest.Finish();
}

Status NeedRoom(AppFileSystem* fs, uint64_t bytes, const std::string& what) {
  if (!fs) return Status::Ok();
  Result<AppSpace> space = fs->Space();
  if (!space.ok()) return space.status();
  if (space.value().free_bytes < bytes)
    return Status::BadInput(what + " " + fs->description() + " is too small: " + FormatSize(bytes) + " needed, " +
                            FormatSize(space.value().free_bytes) + " free");
  return Status::Ok();
}

}  // namespace nasperf
