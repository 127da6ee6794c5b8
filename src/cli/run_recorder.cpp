// RunRecorder.
#include "cli/run_recorder.h"

#include "base/clock.h"
#include "core/target.h"

namespace nasperf {

Result<RunRecorder> RunRecorder::Open(const CommonOptions& options, const std::string& command) {
  RunRecorder recorder;
  recorder.command_line_ = options.command_line;
  if (options.no_store) return recorder;
  std::string path = options.db.empty() ? ResultsStore::DefaultPath() : options.db;
  Result<ResultsStore> store = ResultsStore::Open(path);
  if (!store.ok()) return store.status();
  recorder.store_.emplace(std::move(store).value());
  // The invocation is written with the first run: a command that fails before it
  // measures anything (no agent, a refused token) must leave nothing in the database.
  recorder.command_ = command;
  recorder.started_at_ = UtcTimestamp();
  return recorder;
}

Status RunRecorder::SetSummary(const nlohmann::ordered_json& summary) {
  if (!store_ || invocation_id_ == 0) return Status::Ok();
  return store_->SetInvocationSummary(invocation_id_, summary);
}

Status RunRecorder::Begin(RunResult& run) {
  run.started_at = UtcTimestamp();
  run.command_line = command_line_;
  if (!store_) return Status::Ok();
  if (invocation_id_ == 0) {
    Result<int64_t> invocation = store_->BeginInvocation(command_, command_line_, started_at_);
    if (!invocation.ok()) return invocation.status();
    invocation_id_ = invocation.value();
  }
  return store_->BeginRun(run, invocation_id_);
}

Status RunRecorder::Finish(RunResult& run, const RunResult& begun) {
  run.id = begun.id;
  run.started_at = begun.started_at;
  run.command_line = begun.command_line;
  // An agent's run carries the inventory of the directory or device it ran on (a member
  // device's run must not be described as the agent's root); a local run has none yet.
  if (run.inventory.is_null() || run.inventory.empty()) run.inventory = begun.inventory;
  if (!run.protocol) run.protocol = begun.protocol;
  if (!store_) return Status::Ok();
  Status stored = store_->FinishRun(run);
  if (!stored.ok()) all_stored_ = false;
  return stored;
}

}  // namespace nasperf

namespace nasperf {

std::string StoredLine(const RunRecorder& recorder, const std::vector<RunResult>& runs) {
  if (!recorder.enabled() || !recorder.all_stored() || runs.empty() || runs.front().id == 0) return "";
  std::string ids = " " + std::to_string(runs.front().id);
  if (runs.size() > 1) ids = "s" + ids + "-" + std::to_string(runs.back().id);
  return "stored as run" + ids + " in " + recorder.path() + "\n";
}

}  // namespace nasperf
