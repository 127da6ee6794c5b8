// `nasperf results list|show|compare|tag|rm|export|import`: the results database.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/job_options.h"
#include "store/results_store.h"

namespace nasperf {

struct ResultsCommandOptions {
  CommonOptions common;
  std::vector<std::string> tags;  // filters (k=v), or for `tag`: the tags to set
  std::string name, since, target, last;
  std::vector<std::string> ids;   // run ids (and for `tag`: ID k=v ...)
  bool yes = false;
  bool force = false;  // rm: even a run recorded as in progress on another host
  bool csv = false;
  std::string format = "auto";    // import
  std::vector<std::string> files; // import
  std::string import_name;        // import: --name for the imported runs
  std::string line;               // compare: --line RATE (1g, 100m, 67), empty: none
  std::string spec;               // disks: --spec FILE, empty: none
};

// --tag, --name, --since, --target, --last: which stored runs a command works on.
void AddRunFilterOptions(CLI::App& app, ResultsCommandOptions& options);
Result<RunFilter> BuildRunFilter(const ResultsCommandOptions& options);

// Adds `results` and its subcommands to `app`; returns the `results` subcommand.
CLI::App* AddResultsCommand(CLI::App& app, ResultsCommandOptions& options);
// Runs whichever `results` subcommand was parsed.
int ResultsCommand(CLI::App& results, const ResultsCommandOptions& options);

}  // namespace nasperf
