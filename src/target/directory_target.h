// A directory: nasperf creates one .nasperf-<host>-<pid>-<nonce>-t<thread>.dat file per
// worker thread there (target/own_file.h) and removes them, and only them, when the target
// is destroyed (also after errors and Ctrl-C). Every file is created, opened and removed
// relative to one open directory fd (openat, unlinkat), so a directory renamed or swapped
// for a symlink later cannot redirect them.
#pragma once

#include <cerrno>
#include <string>
#include <vector>

#include "base/scoped_fd.h"
#include "target/own_file.h"
#include "core/target.h"

namespace nasperf {

class DirectoryTarget final : public Target {
 public:
  // Opens `path` now, following symlinks: the user's own TARGET may be one. A failure
  // is reported by Check and Open.
  explicit DirectoryTarget(std::string path);
  // An already-open directory (the agent's, resolved beneath its --root); `path` is only
  // shown in messages.
  DirectoryTarget(ScopedFd dir_fd, std::string path)
      : dir_(std::move(dir_fd)), dir_errno_(dir_.valid() ? 0 : EBADF), path_(std::move(path)) {}
  ~DirectoryTarget() override;
  std::string description() const override { return path_; }
  bool SupportsDirect(std::string* why) override;
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  Result<CacheDropReport> DropCache(bool system_wide) override;
  // A workspace in this directory (target/local_app_fs.h), made relative to its descriptor.
  Result<std::unique_ptr<AppFileSystem>> OpenAppFileSystem() override;

 private:
  // Creates and removes an empty probe file; returns its O_DIRECT alignment when `direct`.
  Result<uint32_t> Probe(bool direct);

  ScopedFd dir_;
  int dir_errno_ = 0;  // why dir_ could not be opened
  std::string path_;
  struct WorkerOwnFile {
    OwnFile file;              // created relative to dir_
    uint64_t data_bytes = 0;   // bytes laid out with real data
    uint64_t size_bytes = 0;   // bytes reserved
  };
  std::vector<WorkerOwnFile> files_;
  uint32_t number_ = 0;  // NextOwnTargetNumber, taken with the first file
  bool numbered_ = false;
};

}  // namespace nasperf
