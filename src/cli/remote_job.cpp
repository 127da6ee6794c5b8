// JobSites: jobs run here (optionally with NAS telemetry from --agent) or on an agent (--on).
#include "cli/remote_job.h"

#include <cstdio>

#include "cli/agent_telemetry.h"
#include "suite/agent_timeouts.h"
#include "suite/remote_site.h"
#include "wire/agent_client.h"

namespace nasperf {

void AddAgentTargetOptions(CLI::App& app, AgentTargetOptions& options) {
  app.add_option("--on", options.on,
                 "HOST[:PORT]: run on that agent's own disks; TARGET is a directory under its --root, or a device it "
                 "allows (/dev/X, read raw)");
  app.add_option("--agent", options.agent, "HOST[:PORT]: an agent on the NAS samples its telemetry while the job runs");
  app.add_option("--token-file", options.token_file, "the agent's token (else env NASPERF_TOKEN)");
}

Result<std::unique_ptr<JobSite>> MakeJobSite(const AgentTargetOptions& options) {
  if (!options.on.empty() && !options.agent.empty())
    return Status::BadInput("--on and --agent exclude each other (--on already samples the NAS's telemetry)");
  const std::string& named = options.on.empty() ? options.agent : options.on;
  const char* option = options.on.empty() ? "--agent" : "--on";
  if (named.empty()) {
    if (!options.token_file.empty()) return Status::BadInput("--token-file needs --on or --agent");
    return MakeLocalJobSite();
  }
  Result<AgentAddress> address = ParseAgentAddress(named);
  if (!address.ok()) return Status::BadInput(std::string(option) + ": " + address.status().message());
  Result<std::string> token = LoadClientToken(options.token_file);
  if (!token.ok()) return Status::BadInput("--token-file: " + token.status().message());
  Result<AgentConnection> conn = AgentConnection::Connect(address.value(), token.value(), "control", kAgentConnectTimeout);
  if (!conn.ok()) return conn.status();
  if (options.on.empty()) {
    // The agent's telemetry around each job run here, each on a connection of its own,
    // made as the run starts: the agent closes a connection idle for 60 s, and the gaps
    // between a diagnosis's steps on a starved NAS were longer (lab.diagnose: "idle for too
    // long: closing", then no NAS telemetry). The connection made above only checked the
    // address and token before anything ran.
    return MakeLocalJobSite([address = address.value(), token = token.value()](const std::function<RunOutcome()>& run) {
      Result<AgentConnection> fresh = AgentConnection::Connect(address, token, "control", kAgentConnectTimeout);
      if (!fresh.ok()) {
        std::fprintf(stderr, "warning: agent %s: no telemetry for this run: %s\n", address.text().c_str(),
                     fresh.status().message().c_str());
        return run();
      }
      AgentTelemetry telemetry(fresh.value());
      telemetry.Start();
      RunOutcome outcome = run();
      outcome.result.telemetry = telemetry.Stop();
      return outcome;
    });
  }
  Result<Frame> inventory =
      conn.value().Request(MessageType::kInventoryGet, nlohmann::json::object(), MessageType::kInventory, kAgentRequestTimeout);
  if (!inventory.ok()) return inventory.status();
  nlohmann::ordered_json inv(inventory.value().payload.value("inventory", nlohmann::json::object()));
  Result<std::vector<AgentDevice>> devices = AgentDevicesFromInventory(inventory.value().payload);
  if (!devices.ok()) return Status::Io("agent " + address.value().text() + ": " + devices.status().message());
  return std::unique_ptr<JobSite>(new RemoteSite(std::move(conn).value(), std::move(inv), std::move(devices).value()));
}

}  // namespace nasperf
