// The agent's side of JobStart: a job run with the normal runner on a directory under
// --root, cancellable from another thread, its files removed however it ends.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "wire/messages.h"
#include "agent/allowed_devices.h"
#include "agent/root_path.h"
#include "nasperf/job.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "suite/run_sink.h"
#include "suite/sweep_run.h"

namespace nasperf {

struct AgentJobRequest {
  JobSpec job;
  std::string dir;           // as the client named it, relative to --root (or a device's path)
  ResolvedDir resolved;      // opened beneath --root; the job's files are created in its fd
  // An absolute `dir`: the allowed device it names (in the agent's list, which outlives
  // the request); `resolved` is then empty.
  const AllowedDevice* device = nullptr;
  std::string name;
  // quick: "use O_DIRECT, or buffered I/O with fsync where the file system has no O_DIRECT".
  bool direct_fallback = false;
  bool check_only = false;  // "check": true
  std::string suite = "run";  // "run" | "sweep"
  SweepStartMsg sweep;        // suite "sweep"
};

// A decoded JobStart → request, its directory opened beneath the root, or — an absolute
// `dir` — the device of `devices` it names, never a path under the root. A job the agent
// will not run (any write, --verify, --fsync or buffered read on a device; a sweep on
// one) → BadInput; a refused path or device → BadInput with *path_error set (the agent
// answers Error "path" rather than "bad_request").
Result<AgentJobRequest> PrepareJob(const JobStartMsg& start, const RootDir& root, const DeviceAllowList& devices,
                                   bool* path_error);

// The agent's inventory with `dir` as its target, gathered only while that path is still
// the directory resolved (the inventory reads it by path); otherwise none, and a note says why.
nlohmann::ordered_json InventoryOf(const ResolvedDir& dir);

// JobStart with "check": true: every check the target makes before writing anything
// (space, permissions, O_DIRECT), without running. Writes nothing.
Status CheckAgentJob(const AgentJobRequest& request);

struct AgentJobOutcome {
  std::vector<RunResult> runs;  // one run (the median repeat, with every repeat's figures)
  Status status;                // why it stopped early; the run is then partial
};

// Runs the request on the calling thread. `cancel` (the control connection closed, a
// JobCancel, SIGTERM) stops the workers at their next batch. `on_sample` gets the
// runner's 1 Hz samples. Every run carries the agent's inventory, measured_on "nas" and
// the telemetry sampled while it ran.
AgentJobOutcome RunAgentJob(const AgentJobRequest& request, const std::atomic<bool>& cancel,
                            const std::function<void(const Sample&)>& on_sample);

// suite "sweep": the client's sweep planned and checked on the directory (its RAM, its
// free space, O_DIRECT there), without running. Writes nothing.
Status CheckAgentSweep(const AgentJobRequest& request);

// Runs the sweep (suite/sweep_run.h) on the calling thread: each point begun and
// finished on `sink`, its samples and labels on `progress`. `cancel` stops the running
// point at its next batch, and with it the sweep. The summary comes back partial then.
SweepOutcome RunAgentSweep(const AgentJobRequest& request, const std::atomic<bool>& cancel, RunSink& sink,
                           SuiteProgress& progress);

}  // namespace nasperf
