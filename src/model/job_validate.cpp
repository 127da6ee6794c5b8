// JobSpec's checks that need no target: each option's limits from the option table, then
// the limits that span options.
#include "base/units.h"
#include "model/job_options.h"
#include "nasperf/job.h"

namespace nasperf {

Status JobSpec::Validate() const {
  // Which engine names are right is the target's to say (Target::Check): a share takes
  // its protocol's engine, a directory the local ones (CheckLocalEngine).
  return ValidateLimits(true);
}

Status JobSpec::ValidateLimits(bool has_file) const {
  for (const JobOption& option : JobOptionTable())
    if (option.validate)
      if (Status s = option.validate(*this, has_file); !s.ok()) return s;
  if (static_cast<uint64_t>(qd) * bs > (4ull << 30))
    return Status::BadInput("--qd x --bs: " + FormatSize(qd * bs) +
                            " of buffers per thread is more than the 4 GiB limit");
  return Status::Ok();
}

}  // namespace nasperf
