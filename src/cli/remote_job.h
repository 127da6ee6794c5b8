// Where `run` and `quick` execute their jobs (elbencho's Local/Remote worker idea): on
// this machine, optionally with an agent sampling NAS telemetry (--agent), or on an
// agent's own disks (--on). The commands use one JobSite and never branch on which.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/runner.h"
#include "core/target.h"
#include "proto/make_target.h"

namespace nasperf {

// --on HOST[:PORT], --agent HOST[:PORT], --token-file FILE.
void AddAgentTargetOptions(CLI::App& app, AgentTargetOptions& options);

class JobSite {
 public:
  virtual ~JobSite() = default;
  // The command's TARGET: a local target, or (--on) a directory relative to the agent's
  // --root, checked by the agent when each job starts.
  virtual Result<std::unique_ptr<Target>> MakeTarget(const std::string& spec, const TargetOptions& options) = 0;
  // What the runs ran on: this machine and TARGET, or the NAS (measured_on "nas").
  virtual nlohmann::ordered_json Inventory(const Target& target) = 0;
  // RunRepeated here, or on the agent. The result carries measured_on and telemetry. A
  // vanished agent gives a partial run with what its samples measured and an Io status.
  virtual RunOutcome Run(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks) = 0;
};

// Parses the options (BadInput, one line: bad address, --on with --agent, token file),
// then connects to the agent when one is named (Io when it cannot be reached or refuses).
Result<std::unique_ptr<JobSite>> MakeJobSite(const AgentTargetOptions& options);

}  // namespace nasperf
