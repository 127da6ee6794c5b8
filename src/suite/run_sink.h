// What a suite reports to while it runs, implemented by the layers above it: where each
// run is stored (cli's RunRecorder; on an agent, frames to the client) and the progress
// line (cli's ProgressLine). The suite layer prints nothing and stores nothing itself.
#pragma once

#include <string>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

class RunSink {
 public:
  virtual ~RunSink() = default;
  // A run about to start (NewRunRecord): the sink may fill its id, time and command line.
  // A failure stops the suite before the run.
  virtual Status Begin(RunResult& run) = 0;
  // The final state of a run that Begin saw (`begun` as Begin left it).
  virtual Status Finish(RunResult& run, const RunResult& begun) = 0;
};

class SuiteProgress {
 public:
  virtual ~SuiteProgress() = default;
  virtual void SetLabel(std::string label) = 0;
  virtual void Show(const Sample& sample) = 0;
  // The label alone, with `detail` after it (for steps too short to have samples).
  virtual void ShowLabel(const std::string& detail) = 0;
  virtual void Clear() = 0;
};

// Progress nobody sees (the agent's side of a suite that reports no label; tests).
class NoProgress final : public SuiteProgress {
 public:
  void SetLabel(std::string) override {}
  void Show(const Sample&) override {}
  void ShowLabel(const std::string&) override {}
  void Clear() override {}
};

}  // namespace nasperf
