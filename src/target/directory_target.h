// A directory: nasperf creates one .nasperf-<host>-<pid>-<nonce>-t<thread>.dat file per
// worker thread there (target/own_file.h) and removes them, and only them, when the target
// is destroyed (also after errors and Ctrl-C).
#pragma once

#include <string>
#include <vector>

#include "target/own_file.h"
#include "target/target.h"

namespace nasperf {

class DirectoryTarget final : public Target {
 public:
  explicit DirectoryTarget(std::string path) : path_(std::move(path)) {}
  ~DirectoryTarget() override;
  std::string description() const override { return path_; }
  bool SupportsDirect(std::string* why) override;
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  Result<CacheDropReport> DropCache(bool system_wide) override;

 private:
  // Creates and removes an empty probe file; returns its O_DIRECT alignment when `direct`.
  Result<uint32_t> Probe(bool direct);

  std::string path_;
  struct WorkerOwnFile {
    OwnFile file;
    uint64_t data_bytes = 0;   // bytes laid out with real data
    uint64_t size_bytes = 0;   // bytes reserved
  };
  std::vector<WorkerOwnFile> files_;
};

}  // namespace nasperf
