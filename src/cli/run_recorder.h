// Stores the runs one command makes: opens the results database before anything is
// measured (so a bad --db fails first, as bad input), records each run as started, then
// its final state. Does nothing under --no-store.
#pragma once

#include <optional>
#include <string>

#include "cli/job_options.h"
#include "nasperf/result.h"
#include "store/results_store.h"
#include "suite/run_record.h"
#include "suite/run_sink.h"

namespace nasperf {

class RunRecorder final : public RunSink {
 public:
  static Result<RunRecorder> Open(const CommonOptions& options, const std::string& command);

  bool enabled() const { return store_.has_value(); }
  std::string path() const { return store_ ? store_->path() : std::string(); }
  // The stored invocation these runs belong to; 0 under --no-store and until the first
  // run begins (a command that stores no run leaves no invocation).
  int64_t invocation_id() const { return invocation_id_; }
  // Keeps a suite's summary (a sweep's analysis) with the invocation, when there is one.
  Status SetSummary(const nlohmann::ordered_json& summary);
  // Fills started_at, command_line, tags (and id when storing) of a run about to start.
  Status Begin(RunResult& run) override;
  // Stores the final state of a run that Begin saw. Keeps its id, time and command line.
  Status Finish(RunResult& run, const RunResult& begun) override;
  // Whether every run begun so far was stored in its final state.
  bool all_stored() const { return all_stored_; }

 private:
  std::optional<ResultsStore> store_;
  int64_t invocation_id_ = 0;
  std::string command_;
  std::string command_line_;
  std::string started_at_;
  bool all_stored_ = true;
};

}  // namespace nasperf

namespace nasperf {

// "stored as run 12 in PATH" (or runs 12-19), empty when nothing was stored or a final
// save failed (its error says so; the line must not contradict it).
std::string StoredLine(const RunRecorder& recorder, const std::vector<RunResult>& runs);

}  // namespace nasperf
