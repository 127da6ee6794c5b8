// A sweep as a suite: planned from a request (what the user asked, parsed) and the facts
// of the machine it runs on (its RAM, dirty-page limit, file system), then run point by
// point — each (size, record, test) one run handed to a RunSink, cold reads dropped with
// the ColdReads policy, each point marked cached or not. The same code runs a sweep here
// and, for `sweep --on`, on the agent.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/target.h"
#include "nasperf/job.h"
#include "nasperf/result.h"
#include "suite/cache_analysis.h"
#include "suite/sweep_plan.h"
#include "suite/sweep_summary.h"

namespace nasperf {

class RunSession;

// What the options asked for, parsed (cli/sweep_command.cpp or an agent's JobStart).
struct SweepRequest {
  std::string name;  // --name; the runs are named "sweep" when empty
  std::map<std::string, std::string> tags;
  JobSpec base;  // engine, pattern, direct, fsync, repeat; rw/bs/size set per point
  uint64_t min_bytes = 64 << 10;
  std::optional<uint64_t> max_bytes;  // nullopt: twice the RAM that can cache the file
  std::vector<uint64_t> records = {64 << 10};
  std::vector<SweepTest> tests;
  std::optional<uint64_t> nas_ram_bytes;
  bool direct = false;       // --direct, as given
  bool fsync = false;        // --fsync, as given
  bool drop_caches = false;  // --drop-caches: also /proc/sys/vm/drop_caches (root)
  // TARGET as named (a local directory is checked for a network file system by it).
  std::string target;
};

// The request planned on one machine; nothing written yet.
struct SweepSetup {
  SweepRequest request;
  SweepPlan plan;
  CacheRam ram;
  std::vector<std::string> notes;
  bool server_cache_unknown = false;  // a network file system or share without --nas-ram
  // The dirty-page limit of the machine that runs the sweep, which bounds the write
  // points its cache can take; nullopt when /proc does not tell (its RAM bounds them then).
  std::optional<uint64_t> dirty_limit_bytes;
  bool direct_on_network_fs = false;  // O_DIRECT skips this machine's cache, not the server's
};

// Plans `request` on `file` with this machine's RAM, dirty limits and the file's free
// space, and makes every check the largest point needs (O_DIRECT, alignment, space).
// BadInput for a sweep that cannot run; Io when /proc/meminfo cannot be read.
Result<SweepSetup> PrepareSweep(const SweepRequest& request, SweepableTarget& file);

struct SweepOutcome {
  SweepSummary summary;  // id 0: the caller's store gives it its invocation id
  std::vector<RunResult> points;
  Status status;  // why it stopped early (the summary is then partial)
};

// Runs every point of `setup` on `file` through `session` (its runner's target must be
// `file`), stopping at the first failure or Ctrl-C. The summary's curves are analysed.
SweepOutcome RunSweepPoints(const SweepSetup& setup, SweepableTarget& file, RunSession& session);

// The summary of a sweep as planned, before any point ran (no target, id or curves yet).
SweepSummary SummaryOf(const SweepSetup& setup, bool client_caches);

}  // namespace nasperf
