// The results database: every run of every command, with its job, results, latency
// histogram, samples, tags and inventory. SQLite in WAL mode, so several nasperf
// processes can store at once. One ResultsStore per thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/diagnosis.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "store/sqlite.h"

namespace nasperf {

struct RunFilter {
  std::vector<int64_t> ids;                 // empty: any
  std::map<std::string, std::string> tags;  // all must match
  std::string name;                         // exact, empty: any
  std::string target;                       // exact, empty: any
  std::string since;                        // ISO 8601 date or time, empty: any
  int64_t invocation_id = 0;                // runs of one command; 0: any
  int64_t limit = 0;                        // newest N; 0: all
  bool oldest_first = false;
};

// One command's record: what was typed and, for suites, their summary (a sweep's analysis).
struct InvocationRecord {
  int64_t id = 0;
  std::string command;  // run, quick, sweep, import
  std::string started_at;
  std::string command_line;
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  int64_t run_count = 0;
};

class ResultsStore {
 public:
  // NASPERF_DB, else $XDG_DATA_HOME/nasperf/results.db, else ~/.local/share/nasperf/results.db.
  static std::string DefaultPath();
  // Opens or creates the database (and its directory), migrating older schemas.
  // BadInput for a foreign or newer file, which is left untouched.
  static Result<ResultsStore> Open(const std::string& path);
  // Opens an existing database only to read it, so that it can be read on a read-only
  // file or file system (an older schema is still migrated when the file can be written).
  static Result<ResultsStore> OpenReadOnly(const std::string& path);

  const std::string& path() const { return db_.path(); }

  // Groups the runs of one command ("run", "quick", "import"). Call it with the first
  // run to store, so that a command that stores nothing leaves no invocation behind.
  Result<int64_t> BeginInvocation(const std::string& command, const std::string& command_line,
                                  const std::string& started_at);
  // Keeps a suite's summary with its invocation (a sweep's cache analysis).
  Status SetInvocationSummary(int64_t invocation_id, const nlohmann::ordered_json& summary);
  // Newest first; `command` empty: any; `id` 0: any.
  Result<std::vector<InvocationRecord>> ListInvocations(const std::string& command, int64_t id = 0);
  // Stores `run` as started but unfinished (partial, with an error saying so) with its
  // tags and this process as its owner, so a run killed outright still leaves a trace and
  // a run in progress is not removed. Sets run.id.
  Status BeginRun(RunResult& run, int64_t invocation_id);
  // Stores the final state of run run.id: its figures and what its end decided; adds its
  // tags, keeping those set meanwhile (`results tag`, which win over the run's own).
  Status FinishRun(const RunResult& run);
  // BeginRun + FinishRun in one transaction.
  Status Save(RunResult& run, int64_t invocation_id);
  // One command's finished runs (an import) with their new invocation, all or nothing.
  Status SaveInvocation(const std::string& command, const std::string& command_line, const std::string& started_at,
                        std::vector<RunResult>& runs);

  // BadInput "no run with id N" when absent.
  Result<RunResult> Load(int64_t id);
  // Newest first. Samples and histograms only with `details`.
  Result<std::vector<RunResult>> List(const RunFilter& filter, bool details = false);
  Status SetTag(int64_t id, const std::string& key, const std::string& value);
  // BadInput when run `id` is absent, or still being measured by a live process (unless
  // `force`: for a run in progress on another host, which this one cannot check).
  Status CheckRemovable(int64_t id, bool force = false);
  Status Remove(int64_t id, bool force = false);

  // Diagnoses (`nasperf diagnose`): one stored item dN each, its steps ordinary runs
  // tagged diagnosis=dN. Reserves the id before the first step, so the steps can carry
  // it; until FinishDiagnosis the diagnosis is listed as partial ("ended before ...").
  Result<int64_t> BeginDiagnosis(const std::string& started_at, const std::string& command_line,
                                 const std::string& target);
  // Stores `d` (d.id from BeginDiagnosis) as its document; BadInput when dN is gone.
  Status FinishDiagnosis(const Diagnosis& d);
  // BadInput "no diagnosis dN in DB" when absent, or naming the key of a damaged document.
  Result<Diagnosis> LoadDiagnosis(int64_t id);
  // Newest first.
  Result<std::vector<Diagnosis>> ListDiagnoses();

 private:
  explicit ResultsStore(SqliteDb db) : db_(std::move(db)) {}
  Status InsertRun(RunResult& run, int64_t invocation_id, bool owned);
  Status SaveRun(RunResult& run, int64_t invocation_id);
  Status WriteRunBody(const RunResult& run);
  Status WriteTags(const RunResult& run);
  Result<RunResult> ReadRun(SqliteStatement& row, bool details);
  Result<Diagnosis> ReadDiagnosis(SqliteStatement& row);
  SqliteDb db_;
};

}  // namespace nasperf
