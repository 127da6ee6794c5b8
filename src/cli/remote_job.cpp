// JobSites: jobs run here (optionally with NAS telemetry from --agent) or on an agent (--on).
#include "cli/remote_job.h"

#include "cli/agent_telemetry.h"
#include "cli/agent_timeouts.h"
#include "cli/remote_site.h"
#include "wire/agent_client.h"

namespace nasperf {

void AddAgentTargetOptions(CLI::App& app, AgentTargetOptions& options) {
  app.add_option("--on", options.on, "HOST[:PORT]: run on that agent's own disks; TARGET is a directory under its --root");
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
    // The agent's telemetry around each job run here.
    auto agent = std::make_shared<AgentConnection>(std::move(conn).value());
    return MakeLocalJobSite([agent](const std::function<RunOutcome()>& run) {
      AgentTelemetry telemetry(*agent);
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
  return std::unique_ptr<JobSite>(new RemoteSite(std::move(conn).value(), std::move(inv)));
}

}  // namespace nasperf
