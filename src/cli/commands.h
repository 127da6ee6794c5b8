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

struct SweepCommandOptions {
  CommonOptions common;
  std::string target = ".";
  std::string min = "64k";
  std::string max;  // empty: twice the RAM that can cache the file, capped by free space
  std::string record = "64k";
  std::string tests = "write,rewrite,read,reread,randread,randwrite";
  std::string repeat = "1";
  std::string engine = "psync";
  std::string pattern = "random";
  std::string nas_ram;
  bool direct = false;
  bool fsync = false;
  bool drop_caches = false;
};
int SweepCommand(const SweepCommandOptions& options);

// Exit status for a failed Status, after printing its one line on stderr.
int ReportFailure(const Status& status);
int ExitCodeFor(const Status& status);

}  // namespace nasperf
