// null: no storage at all; the runner and the null engine measure nasperf's own overhead.
#pragma once

#include "core/target.h"

namespace nasperf {

class NullTarget final : public Target {
 public:
  std::string description() const override { return "null:"; }
  bool is_null() const override { return true; }
  Status Check(const JobSpec& job) override { return CheckLocalEngine(job); }
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override {
    std::vector<WorkerFile> files(job.threads);
    for (WorkerFile& f : files) f.region_bytes = job.size;
    return files;
  }
};

}  // namespace nasperf
