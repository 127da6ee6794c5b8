// `nasperf report [ID...] [filters] -o FILE.html`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/results_command.h"

namespace nasperf {

struct ReportCommandOptions {
  ResultsCommandOptions filters;  // ids, --tag, --name, --since, --target, --last, --db
  std::string output;
  std::vector<std::string> lines;  // "LABEL=MB/s"
  std::string title;
};

void AddReportCommand(CLI::App& app, ReportCommandOptions& options);
int ReportCommand(const ReportCommandOptions& options);

}  // namespace nasperf
