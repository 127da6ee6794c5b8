// The one binding of a job file (model/job_file.h, whichever reader made it) to run's
// options: each setting given as if typed after `--KEY`, by the same descriptors and the
// same JobInput that `run`'s command line fills, so a key is exactly an option.
#pragma once

#include <string>
#include <vector>

#include "cli/job_options.h"
#include "cli/protocol_options.h"
#include "model/job_file.h"
#include "nasperf/status.h"

namespace nasperf {

// One job of the file, its settings given; BuildJob and the target's checks come later.
struct BoundFileJob {
  std::string name;
  std::string group;  // the file's group name; kDefaultJobGroup when it named none
  int line = 0;       // the job's section, for errors that no one key caused
  JobInput input;
  ProtocolOptions protocol;
};

// What job_group says for the jobs of a file that names no group.
inline constexpr const char* kDefaultJobGroup = "all";

// Every job of `file`. `default_target`: the command line's TARGET, for jobs without a
// `target` key. The last setting of a key counts (a job's own after [global]'s). A flag
// takes "" or "true" (on) and "false" (off). BadInput, one line: "FILE:LINE: key 'qdd':
// unknown option of run", "FILE:LINE: key 'qd': --qd: ...", a file with no job.
Result<std::vector<BoundFileJob>> BindJobFile(const JobFile& file, const std::string& default_target);

// "FILE:LINE: job 'NAME': " + what: for a job's errors found after binding (across
// options, its target).
Status JobFileError(const JobFile& file, const BoundFileJob& job, const Status& what);

}  // namespace nasperf
