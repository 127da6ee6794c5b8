// What the `results` subcommands share, and each one's entry point (one file each:
// results_list, results_show, results_compare, results_edit, results_transfer).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/results_command.h"
#include "store/results_store.h"

namespace nasperf {

// --db, else ResultsStore::DefaultPath().
std::string ResultsDbPath(const ResultsCommandOptions& o);

enum class StoreAccess { kRead, kWrite, kCreate };

// Opened only after the arguments are checked: bad input must not create a database.
// Commands that only read never create one either, and open it read-only, so that they
// work on a read-only file or file system.
Result<ResultsStore> OpenResultsStore(const ResultsCommandOptions& o, StoreAccess access);

// Runs matching the filter options; none when there is no database yet.
Result<std::vector<RunResult>> MatchingRuns(const ResultsCommandOptions& o, bool details);

// Run ids as given on the command line (BadInput on the first that is not one).
Result<std::vector<int64_t>> ParseRunIds(const std::vector<std::string>& texts);

// One line of `results list` (and of `results import`'s answer).
std::string RunListLine(const RunResult& r);

// The subcommands: each returns the exit status.
int ResultsList(const ResultsCommandOptions& o);
int ResultsShow(const ResultsCommandOptions& o);
int ResultsCompare(const ResultsCommandOptions& o);
int ResultsTag(const ResultsCommandOptions& o);
int ResultsRemove(const ResultsCommandOptions& o);
int ResultsExport(const ResultsCommandOptions& o);
int ResultsImport(const ResultsCommandOptions& o);
int ResultsDisks(const ResultsCommandOptions& o);

}  // namespace nasperf
