// One function per command; each returns the process exit status.
#pragma once

#include "cli/job_options.h"

namespace nasperf {

struct RunCommandOptions {
  CommonOptions common;
  JobOptions job;
};
int RunCommand(const RunCommandOptions& options);

struct QuickCommandOptions {
  CommonOptions common;
  JobOptions job;
};
int QuickCommand(const QuickCommandOptions& options);

// Exit status for a failed Status, after printing its one line on stderr.
int ReportFailure(const Status& status);
int ExitCodeFor(const Status& status);

}  // namespace nasperf
