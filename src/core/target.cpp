// The parts of the Target interface every target shares: the engine a job runs with.
#include "core/target.h"

#include <fcntl.h>

#include "engine/local_engines.h"

namespace nasperf {

int OpenFlagsFor(const JobSpec& job) {
  int flags = O_CLOEXEC | (DoesWrites(job.rw) ? O_RDWR : O_RDONLY);
  if (job.direct) flags |= O_DIRECT;
  return flags;
}

std::string EngineFor(const JobSpec& job, const Target& target) {
  if (const char* engine = target.required_engine()) return engine;
  return ResolveEngineName(job, false);
}

Status CheckLocalEngine(const JobSpec& job) {
  if (job.engine == "auto") return Status::Ok();
  for (const std::string& name : LocalEngineNames())
    if (job.engine == name) return Status::Ok();
  return Status::BadInput("--engine: '" + job.engine + "' is not one of psync, io_uring, auto");
}

Result<std::unique_ptr<Engine>> Target::MakeEngine(const JobSpec& job) {
  const std::string name = EngineFor(job, *this);
  Result<std::unique_ptr<Engine>> local = MakeLocalEngine(name);
  if (!local.ok() || local.value()) return local;
  return Status::BadInput("--engine: '" + name + "' is not an engine for " + description());
}

Result<std::unique_ptr<AppFileSystem>> Target::OpenAppFileSystem() {
  return Status::Unavailable("TARGET " + description() +
                             " serves no files (null:, devices): application workloads need a directory, "
                             "an SMB share or an NFS export");
}

}  // namespace nasperf
