// Where `run` and `quick` execute their jobs (elbencho's Local/Remote worker idea): on
// this machine, optionally with an agent sampling NAS telemetry (--agent), or on an
// agent's own disks (--on). The commands use one JobSite and never branch on which.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "suite/job_site.h"
#include "proto/make_target.h"

namespace nasperf {

// --on HOST[:PORT], --agent HOST[:PORT], --token-file FILE.
void AddAgentTargetOptions(CLI::App& app, AgentTargetOptions& options);

// Parses the options (BadInput, one line: bad address, --on with --agent, token file),
// then connects to the agent when one is named (Io when it cannot be reached or refuses).
Result<std::unique_ptr<JobSite>> MakeJobSite(const AgentTargetOptions& options);

}  // namespace nasperf
