// JobSpec's checks that need no target: each job option's limits (model/job_options.h),
// then the limits that span options. Target::Check adds what only the target knows.
#pragma once

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

// Checks what can be checked without looking at the target.
Status ValidateJob(const JobSpec& job);
// The numeric limits of ValidateJob (block size, depth, threads, mix, size, times, repeat)
// without the engine checks: for jobs other tools or other nasperf versions ran, as in an
// imported result document. `has_file`: false for a network test (no file, size 0).
Status ValidateJobLimits(const JobSpec& job, bool has_file);

}  // namespace nasperf
