// What `run` and `quick` do alike when mpirun started them as one rank of many: the
// checks said before anything is written, the meeting before any rank makes a file, and
// the sink of the ranks that neither print nor store (rank 0 stores the merged run).
#pragma once

#include <string>

#include "cli/remote_job.h"
#include "cluster/comm.h"
#include "nasperf/job.h"
#include "suite/run_sink.h"

namespace nasperf {

// Ranks other than 0: their runs go to rank 0.
class NoSink final : public RunSink {
 public:
  Status Begin(RunResult&) override { return Status::Ok(); }
  Status Finish(RunResult&, const RunResult&) override { return Status::Ok(); }
};

// What one process cannot do as one of many ranks: --on and --agent (each rank is a
// client), --repeat above 1 (the ranks merge one run per job).
Status CheckRankJob(const AgentTargetOptions& remote, const JobSpec& job);

// Rank 0 lists the stale files in `target` before any rank probes or lays out its own
// (which would show up half made); then every rank meets the others.
Status MeetBeforeFiles(Comm& ranks, const std::string& target);

}  // namespace nasperf
