// An existing file or block device, shared by the worker threads (one region each).
// Read-only unless it is a .nasperf-* file a nasperf run made (proved by descriptor: a
// regular file, one link, our uid, nasperf's name and mark; see target/own_file.h), or a
// block device that --allow-destructive names and that holds nothing (see block_device.h).
#pragma once

#include <optional>
#include <string>

#include "target/own_file.h"
#include "core/target.h"

namespace nasperf {

class ExistingTarget final : public Target {
 public:
  // `block_bytes`: a device's physical block (files: 0); rank regions (options.ranks > 1)
  // start on a multiple of it, and of 4 KiB.
  ExistingTarget(std::string path, bool is_device, uint64_t size_bytes, TargetOptions options, uint32_t block_bytes = 0);
  std::string description() const override { return path_; }
  std::optional<uint64_t> natural_size(uint32_t threads) const override;
  bool SupportsDirect(std::string* why) override;
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  // Dropping clean pages changes no data, so it is safe on a user's file or device.
  Result<CacheDropReport> DropCache(bool system_wide) override;
  // A file: whether SEEK_HOLE finds a hole in the region read; a device: that it cannot
  // be known.
  std::string ReadHoleWarning(const JobSpec& job) override;
  std::optional<RankRegion> shared_region() const override;

 private:
  // Takes over the .nasperf-* file for writing (once), or says why it is not nasperf's.
  Status AdoptForWrites();
  // One descriptor for a job: a device or a read by path; a write only through own_.
  Result<ScopedFd> OpenRegion(const JobSpec& job);

  std::string path_;
  bool is_device_;
  uint64_t size_bytes_;
  TargetOptions options_;
  uint64_t align_bytes_;  // rank regions start on multiples of it
  // What this process may use: all of it, or its rank's region (options_.ranks > 1).
  RankRegion region_;
  uint64_t used_bytes_ = 0;  // the region the last job touched, where residency is checked
  std::optional<OwnFile> own_;  // a write job's file, proved nasperf's; never removed
};

}  // namespace nasperf
