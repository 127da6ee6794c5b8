// RunAppOnAgent: the subcommand's parsed options as [name, value] pairs, one JobStart of
// suite "app", the agent's heartbeat waited through (Ctrl-C becomes JobCancel), then the
// runs it sent labelled, stored and printed here.
#include "cli/app_on_agent.h"

#include <fmt/format.h>

#include <set>

#include "base/signals.h"
#include "suite/agent_timeouts.h"
#include "cli/run_recorder.h"
#include "model/run_json.h"
#include "wire/agent_client.h"

namespace nasperf {
namespace {


// The client's own options: they say how this end prints and stores, never what the agent runs.
const std::set<std::string>& ClientOptions() {
  static const std::set<std::string> k = {"help", "on", "token-file", "json", "db", "name", "tag", "no-store"};
  return k;
}
// Options that have no meaning on the agent's own directories: refused by name.
const std::set<std::string>& NotOnAgent() {
  static const std::set<std::string> k = {"user", "password-file", "connect-timeout", "nas-ram"};
  return k;
}

struct AppStart {
  std::string dir = ".";  // TARGET, relative to the agent's --root
  nlohmann::json options = nlohmann::json::array();
};

Result<AppStart> StartOf(const CLI::App& cmd) {
  AppStart start;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->count() == 0) continue;
    if (!opt->nonpositional()) {  // TARGET
      start.dir = opt->results().empty() ? "." : opt->results().front();
      if (start.dir.find("://") != std::string::npos)
        return Status::BadInput("--on: TARGET is a directory under the agent's --root, not " + start.dir);
      continue;
    }
    const std::string name = opt->get_lnames().empty() ? "" : opt->get_lnames().front();
    if (ClientOptions().count(name)) continue;
    if (NotOnAgent().count(name))
      return Status::BadInput("--" + name + " has no meaning with --on: the agent runs on its own directories");
    if (opt->get_expected_min() == 0) {  // a flag (--verify): its results are "true", not a value
      start.options.push_back({name, ""});
      continue;
    }
    for (const std::string& value : opt->results()) {
      if (value.find("://") != std::string::npos)
        return Status::BadInput("--" + name + ": with --on, '" + value +
                                "' must be a directory under the agent's --root (or null:)");
      start.options.push_back({name, value});
    }
  }
  return start;
}

CommonOptions CommonOf(const CLI::App& cmd, const std::string& command_line) {
  CommonOptions common;
  common.command_line = command_line;
  auto count = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  common.json = count("--json");
  common.no_store = count("--no-store");
  if (count("--name")) common.name = cmd.get_option("--name")->results().front();
  if (count("--db")) common.db = cmd.get_option("--db")->results().front();
  if (count("--tag")) common.tags = cmd.get_option("--tag")->results();
  return common;
}

struct AgentRuns {
  std::vector<RunResult> runs;
  nlohmann::json inventory;
  Status status;  // the agent's error, or why the wait ended
};

// JobStart, then frames until JobDone: Ping is the agent's heartbeat, an Error ends it.
AgentRuns Await(AgentConnection& conn, const std::string& where, const nlohmann::json& start) {
  AgentRuns out;
  if (Status s = conn.Send(MessageType::kJobStart, start); !s.ok()) {
    out.status = Status::Io("agent " + where + ": " + s.message());
    return out;
  }
  bool cancel_sent = false;
  std::chrono::steady_clock::time_point last_heard = std::chrono::steady_clock::now();
  while (true) {
    if (!cancel_sent && InterruptRequested()) {
      cancel_sent = true;
      (void)conn.Send(MessageType::kJobCancel, nlohmann::json::object());
    }
    Result<std::optional<Frame>> got = conn.TryReceive(kAgentPollTick);
    if (!got.ok()) {
      // After Ctrl-C the agent's answer is the interrupt, whatever words it chose.
      if (cancel_sent) {
        out.status = Status::Interrupted();
        return out;
      }
      out.status = got.status().kind() == ErrorKind::kBadInput
                       ? got.status()
                       : Status::Io("agent " + where + ": " + got.status().message());
      return out;
    }
    if (!got.value()) {
      if (std::chrono::steady_clock::now() - last_heard > kAgentSilenceLimit) {
        out.status = Status::Io("agent " + where + " sent nothing for 3 s (agent or its disk gone)");
        return out;
      }
      continue;
    }
    last_heard = std::chrono::steady_clock::now();
    const Frame& frame = *got.value();
    if (frame.type != MessageType::kJobDone) continue;
    const nlohmann::json runs = frame.payload.value("runs", nlohmann::json::array());
    if (!runs.is_array() || runs.empty()) {
      out.status = Status::Io("agent " + where + ": JobDone without a run");
      return out;
    }
    for (const nlohmann::json& j : runs) {
      Result<RunResult> run = RunFromJson(j);
      if (!run.ok()) {
        out.status = Status::Io("agent " + where + ": JobDone: " + run.status().message());
        return out;
      }
      out.runs.push_back(std::move(run).value());
    }
    out.inventory = frame.payload.value("inventory", nlohmann::json::object());
    if (frame.payload.contains("error")) {
      const std::string why = frame.payload.value("error", std::string("stopped early"));
      out.status = cancel_sent ? Status::Interrupted() : Status::Io("agent " + where + ": " + why);
    }
    return out;
  }
}

// The workload could not see the NAS's CPU; the agent sampled it meanwhile.
void ReplaceNasBusyNote(RunResult& r) {
  std::string cpu;
  if (r.telemetry.is_object() && r.telemetry.contains("summary") && r.telemetry["summary"].is_array())
    for (const auto& line : r.telemetry["summary"])
      if (line.is_string() && line.get<std::string>().rfind("CPU busy", 0) == 0) cpu = line.get<std::string>();
  for (std::string& note : r.notes) {
    if (note != kNasBusyNotMeasured) continue;
    note = cpu.empty() ? "NAS busy: not measured (the agent's 1 Hz telemetry took no sample while it ran)"
                       : "NAS busy (the agent's telemetry while it ran): " + cpu;
  }
}

}  // namespace

void AddAppOnOptions(CLI::App& cmd, AgentTargetOptions& options) {
  cmd.add_option("--on", options.on,
                 "HOST[:PORT]: run the workload on that agent's own directories (TARGET and every directory "
                 "option under its --root)");
  cmd.add_option("--token-file", options.token_file, "the agent's token (else env NASPERF_TOKEN)");
}

int RunAppOnAgent(const CLI::App& cmd, const AgentTargetOptions& options, const AppCommands& commands) {
  InstallInterruptHandler();
  const CommonOptions common = CommonOf(cmd, commands.command_line);
  Result<std::map<std::string, std::string>> tags = ParseTags(common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  Result<AppStart> start = StartOf(cmd);
  if (!start.ok()) return ReportFailure(start.status());
  Result<AgentAddress> address = ParseAgentAddress(options.on);
  if (!address.ok()) return ReportFailure(Status::BadInput("--on: " + address.status().message()));
  Result<std::string> token = LoadClientToken(options.token_file);
  if (!token.ok()) return ReportFailure(Status::BadInput("--token-file: " + token.status().message()));
  const std::string workload = cmd.get_name();
  Result<RunRecorder> recorder = RunRecorder::Open(common, "app " + workload);
  if (!recorder.ok()) return ReportFailure(recorder.status());
  Result<AgentConnection> conn =
      AgentConnection::Connect(address.value(), token.value(), "control", kAgentConnectTimeout);
  if (!conn.ok()) return ReportFailure(conn.status());
  const std::string where = address.value().text();

  const nlohmann::json payload = {{"suite", "app"},
                                  {"dir", start.value().dir},
                                  {"name", common.name},
                                  {"app", {{"workload", workload}, {"options", start.value().options}}}};
  AgentRuns got = Await(conn.value(), where, payload);
  if (got.runs.empty()) return ReportFailure(got.status);

  // Stored here as the runs this command made: labelled with the agent's directory, the
  // NAS's inventory, and the agent's telemetry as it sent it.
  std::vector<RunResult> runs;
  Status stored;
  for (RunResult& r : got.runs) {
    r.id = 0;
    r.name = common.name.empty() ? workload : common.name;
    r.tags = tags.value();
    r.target = "agent " + where + ":" + start.value().dir;
    r.measured_on = "nas";
    r.notes.insert(r.notes.begin(), "ran on agent " + where + " in its directory " + start.value().dir +
                                        " (the NAS measured from inside; its telemetry beside it)");
    if (!got.inventory.is_null()) r.inventory = nlohmann::ordered_json(got.inventory);
    ReplaceNasBusyNote(r);
    if (!got.status.ok()) {
      r.partial = true;
      if (r.error.empty()) r.error = got.status.kind() == ErrorKind::kInterrupted ? "interrupted" : got.status.message();
    }
    if (Status s = recorder.value().Begin(r); !s.ok() && stored.ok()) stored = s;
    const RunResult begun = r;
    if (Status s = recorder.value().Finish(r, begun); !s.ok() && stored.ok()) stored = s;
    runs.push_back(r);
  }
  PrintAppRuns(common, runs, StoredLine(recorder.value(), runs));
  if (!got.status.ok()) return ReportFailure(got.status);
  return ReportFailure(stored);
}

}  // namespace nasperf
