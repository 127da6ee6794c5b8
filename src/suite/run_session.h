// The part every suite shares around one job: the run recorded as started, the progress
// line fed, reads after writes started cold (suite/cold_reads.h), the job run on its
// site, its final state stored. run, quick and sweep are each a loop over Run.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/runner.h"
#include "nasperf/job.h"
#include "nasperf/result.h"
#include "suite/job_site.h"
#include "suite/run_sink.h"

namespace nasperf {

struct SessionJob {
  JobSpec job;
  std::string name;
  std::string test;  // quick's and sweep's label, kept with the run ("" for run)
  // Called before each repeat (the sweep's file handling); may be empty.
  std::function<Status(uint32_t repeat)> before_repeat;
  // The ColdReads policy's drop just before the clock (run and quick); a sweep drops in
  // before_repeat instead.
  bool cold_reads = true;
  // Last touches to the result before it is stored (notes, the cached mark); may be empty.
  std::function<void(RunResult&)> finish;
};

struct SessionRun {
  bool began = false;  // false: the sink refused the run and nothing ran (status says why)
  RunResult result;
  Status status;  // the run's own (partial, interrupted, the agent gone)
  Status stored;  // the sink's Finish
};

class RunSession {
 public:
  // `inventory` is every run's (gathered once per command); `drop_caches` makes cold
  // reads drop the whole page cache too.
  RunSession(JobRunner& runner, RunSink& sink, SuiteProgress& progress, std::map<std::string, std::string> tags,
             bool drop_caches, nlohmann::ordered_json inventory)
      : runner_(runner),
        sink_(sink),
        progress_(progress),
        tags_(std::move(tags)),
        drop_caches_(drop_caches),
        inventory_(std::move(inventory)) {}

  SessionRun Run(const SessionJob& job);

  SuiteProgress& progress() { return progress_; }
  const std::map<std::string, std::string>& tags() const { return tags_; }
  const nlohmann::ordered_json& inventory() const { return inventory_; }

 private:
  JobRunner& runner_;
  RunSink& sink_;
  SuiteProgress& progress_;
  std::map<std::string, std::string> tags_;
  bool drop_caches_;
  nlohmann::ordered_json inventory_;
};

}  // namespace nasperf
