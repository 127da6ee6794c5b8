// JobSpec's checks that need no target: each option's limits from the option table, then
// the limits that span options.
#include "model/job_validate.h"

#include "base/units.h"
#include "model/job_options.h"

namespace nasperf {

Status ValidateJob(const JobSpec& job) {
  // Which engine names are right is the target's to say (Target::Check): a share takes
  // its protocol's engine, a directory the local ones (CheckLocalEngine).
  return ValidateJobLimits(job, true);
}

Status ValidateJobLimits(const JobSpec& job, bool has_file) {
  for (const JobOption& option : JobOptionTable())
    if (option.validate)
      if (Status s = option.validate(job, has_file); !s.ok()) return s;
  if (static_cast<uint64_t>(job.qd) * job.bs > (4ull << 30))
    return Status::BadInput("--qd x --bs: " + FormatSize(job.qd * job.bs) +
                            " of buffers per thread is more than the 4 GiB limit");
  return Status::Ok();
}

}  // namespace nasperf
