// Opening the results database for a `results` subcommand, and choosing its runs.
#include <unistd.h>

#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "cli/stored_items.h"

namespace nasperf {

std::string ResultsDbPath(const ResultsCommandOptions& o) {
  return o.common.db.empty() ? ResultsStore::DefaultPath() : o.common.db;
}

Result<ResultsStore> OpenResultsStore(const ResultsCommandOptions& o, StoreAccess access) {
  std::string path = ResultsDbPath(o);
  if (access != StoreAccess::kCreate && ::access(path.c_str(), F_OK) != 0)
    return Status::BadInput("no results database at " + path + " yet: nothing has been stored (see --db)");
  return access == StoreAccess::kRead ? ResultsStore::OpenReadOnly(path) : ResultsStore::Open(path);
}

Result<std::vector<RunResult>> MatchingRuns(const ResultsCommandOptions& o, bool details) {
  Result<RunFilter> filter = BuildRunFilter(o);
  if (!filter.ok()) return filter.status();
  if (::access(ResultsDbPath(o).c_str(), F_OK) != 0) return std::vector<RunResult>{};
  Result<ResultsStore> store = OpenResultsStore(o, StoreAccess::kRead);
  if (!store.ok()) return store.status();
  return store.value().List(filter.value(), details);
}

Result<std::vector<int64_t>> ParseRunIds(const std::vector<std::string>& texts) {
  std::vector<int64_t> ids;
  for (const std::string& t : texts) {
    Result<int64_t> id = ParseRunId(t);
    if (!id.ok()) return id.status();
    ids.push_back(id.value());
  }
  return ids;
}

}  // namespace nasperf
