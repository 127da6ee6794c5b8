// `nasperf app WORKLOAD --on HOST ...`: the workload runs on the agent's own directories
// (the NAS measured from inside, as `run --on` does for a job), and comes back here to be
// printed and stored like a local run. The options the user gave are sent by name as
// typed; the agent checks each against its list (src/agent/agent_app.h) and runs the
// workload itself, so a value is validated by the same code in both places.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

#include "cli/app_command.h"
#include "cli/commands.h"

namespace nasperf {

// --on HOST[:PORT] and --token-file FILE on an app subcommand.
void AddAppOnOptions(CLI::App& cmd, AgentTargetOptions& options);

// The chosen subcommand `cmd` (its options already parsed) run on the agent named by
// `options.on`; the process exit status.
int RunAppOnAgent(const CLI::App& cmd, const AgentTargetOptions& options, const AppCommands& commands);

}  // namespace nasperf
