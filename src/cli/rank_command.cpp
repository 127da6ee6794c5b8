// run's and quick's rank checks and meeting (cli/rank_command.h).
#include "cli/rank_command.h"

#include "base/signals.h"
#include "cli/clean_command.h"

namespace nasperf {

Status CheckRankJob(const AgentTargetOptions& remote, const JobSpec& job) {
  if (!remote.on.empty() || !remote.agent.empty())
    return Status::BadInput("under mpirun: --on and --agent are not supported (each rank is a client here)");
  if (job.repeat > 1) return Status::BadInput("under mpirun: --repeat above 1 is not supported (each rank runs once)");
  return Status::Ok();
}

Status MeetBeforeFiles(Comm& ranks, const std::string& target) {
  if (ranks.rank() == 0) NoteStaleFiles(target);
  return ranks.Barrier(InterruptRequested);
}

}  // namespace nasperf
