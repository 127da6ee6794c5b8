// `nasperf diagnose`: options checked, sites made, the plan printed, the steps run in
// order with a line each on stderr, the evidence gathered, the diagnosis stored and
// printed. The steps are cli/diagnose_steps.cpp, the plan cli/diagnose_plan.cpp.
#include "cli/diagnose_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>

#include "base/clock.h"
#include "base/signals.h"
#include "base/units.h"
#include "cli/commands.h"
#include "cli/diagnose_evidence.h"
#include "cli/diagnose_plan.h"
#include "cli/diagnose_steps.h"
#include "cli/diagnosis_record.h"
#include "cli/remote_job.h"
#include "diagnose/diagnose.h"
#include "model/diagnosis_json.h"
#include "model/inventory_json.h"
#include "proto/schemes.h"
#include "report/diagnosis_text.h"
#include "wire/agent_client.h"

namespace nasperf {

CLI::App* AddDiagnoseCommand(CLI::App& app, DiagnoseCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "diagnose", "where the throughput to TARGET goes, layer by layer: client, NAS disks, network, protocol");
  AddCommonOptions(*cmd, o.common);
  AddProtocolOptions(*cmd, o.protocol);
  cmd->add_option("TARGET", o.target, "smb://..., nfs://..., iscsi://... or a mounted path of the NAS")->required();
  cmd->add_option("--agent", o.agent,
                  "HOST[:PORT]: a nasperf agent on the NAS (its disks, CPU, interrupts and the network need one)");
  cmd->add_option("--token-file", o.token_file, "the agent's token (else env NASPERF_TOKEN)");
  cmd->add_flag("--quick", o.quick, "sequential steps only, 5 s each: about a minute");
  cmd->add_flag("--full", o.full, "random writes too, 20 s steps");
  cmd->add_option("--step-time", o.step_time, "measured seconds per step (default: quick 5, 10, full 20)");
  cmd->add_option("--size", o.size,
                  "test file of the write and read steps (default: quick 256m, 1g, full 2g, "
                  "at most a quarter of the free space)");
  cmd->add_option("--line,--line-rate", o.line,
                  "the link's line rate when the NICs cannot say it (a shaped or virtual link): 100m, 1g, 2.5g, "
                  "10g, or Mbit/s");
  return cmd;
}

namespace {

// What the user gave, checked before anything is connected to, opened or stored.
struct DiagnoseRequest {
  DiagnoseMode mode = DiagnoseMode::kDefault;
  std::optional<double> step_time_s;
  std::optional<uint64_t> size_bytes;
  std::optional<int64_t> line_rate_mbps;
  std::map<std::string, std::string> tags;
  TargetOptions target_options;
};

// "1g", "2.5G", "100m", "1gbe", "10gbit" or a bare number of Mbit/s.
Result<int64_t> ParseLineRateMbps(const std::string& text) {
  auto bad = [&] {
    return Status::BadInput(fmt::format("--line must be a line rate like 100m, 1g or 10g (or Mbit/s), not '{}'", text));
  };
  size_t end = 0;
  double value = 0;
  try {
    value = std::stod(text, &end);
  } catch (const std::exception&) {
    return bad();
  }
  if (end == 0 || !std::isdigit(static_cast<unsigned char>(text[0]))) return bad();
  std::string unit = text.substr(end);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double mbps = 0;
  if (unit.empty() || unit == "m" || unit == "mbit" || unit == "mbps")
    mbps = value;
  else if (unit == "g" || unit == "gbit" || unit == "gbps" || unit == "gbe")
    mbps = value * 1000;
  else
    return bad();
  if (!(mbps >= 1) || mbps > 1e6) return bad();
  return static_cast<int64_t>(std::llround(mbps));
}

Result<DiagnoseRequest> CheckRequest(const DiagnoseCommandOptions& o) {
  DiagnoseRequest q;
  if (o.quick && o.full) return Status::BadInput("--quick and --full exclude each other");
  q.mode = o.quick ? DiagnoseMode::kQuick : o.full ? DiagnoseMode::kFull : DiagnoseMode::kDefault;
  if (!o.step_time.empty()) {
    Result<double> t = ParseDuration(o.step_time);
    if (!t.ok()) return Status::BadInput("--step-time: " + t.status().message());
    if (!(t.value() > 0) || t.value() > 3600)
      return Status::BadInput(fmt::format("--step-time must be more than 0 and at most 1h, not '{}'", o.step_time));
    q.step_time_s = t.value();
  }
  if (!o.size.empty()) {
    Result<uint64_t> size = ParseSize(o.size);
    if (!size.ok()) return Status::BadInput("--size: " + size.status().message());
    if (size.value() < 4096) return Status::BadInput(fmt::format("--size must be at least 4 KiB, not '{}'", o.size));
    q.size_bytes = size.value();
  }
  if (!o.line.empty()) {
    Result<int64_t> line = ParseLineRateMbps(o.line);
    if (!line.ok()) return line.status();
    q.line_rate_mbps = line.value();
  }
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return tags.status();
  if (tags.value().count("diagnosis")) return Status::BadInput("--tag diagnosis=...: diagnose sets that tag itself");
  q.tags = tags.value();
  if (!o.agent.empty()) {
    Result<AgentAddress> address = ParseAgentAddress(o.agent);
    if (!address.ok()) return Status::BadInput("--agent: " + address.status().message());
    Result<std::string> token = LoadClientToken(o.token_file);
    if (!token.ok()) return Status::BadInput("--token-file: " + token.status().message());
  } else if (!o.token_file.empty()) {
    return Status::BadInput("--token-file needs --agent");
  }
  Result<TargetOptions> target_options = BuildTargetOptions(o.protocol, o.target);
  if (!target_options.ok()) return target_options.status();
  q.target_options = target_options.value();
  return q;
}

// The sites every layer's steps run on: null: and TARGET here (each with the agent's
// telemetry around its jobs), and the agent's root and devices (--on) when there is one.
struct Sites {
  std::unique_ptr<JobSite> client, target, agent;
};

Result<Sites> MakeSites(const DiagnoseCommandOptions& o, const DiagnoseRequest& q) {
  Sites s;
  AgentTargetOptions here{.on = "", .agent = o.agent, .token_file = o.token_file};
  Result<std::unique_ptr<JobSite>> target = MakeJobSite(here);
  if (!target.ok()) return target.status();
  s.target = std::move(target).value();
  if (Status st = s.target->MakeTarget(o.target, q.target_options); !st.ok()) return st;
  if (s.target->target().is_null())
    return Status::BadInput("diagnose TARGET is a share, a LUN or a mounted path of the NAS, not null:");
  Result<std::unique_ptr<JobSite>> client = MakeJobSite(here);
  if (!client.ok()) return client.status();
  s.client = std::move(client).value();
  if (Status st = s.client->MakeTarget("null:", TargetOptions{}); !st.ok()) return st;
  if (!o.agent.empty()) {
    Result<std::unique_ptr<JobSite>> agent =
        MakeJobSite(AgentTargetOptions{.on = o.agent, .agent = "", .token_file = o.token_file});
    if (!agent.ok()) return agent.status();
    s.agent = std::move(agent).value();
  }
  return s;
}

// The mode's test file, within a quarter of the free space where the files go (here and
// on the agent), in whole MiB.
uint64_t TestFileBytes(const DiagnoseRequest& q, const std::vector<const nlohmann::ordered_json*>& inventories) {
  if (q.size_bytes) return *q.size_bytes;
  uint64_t size = q.mode == DiagnoseMode::kQuick  ? 256ull << 20
                  : q.mode == DiagnoseMode::kFull ? 2ull << 30
                                                  : 1ull << 30;
  for (const nlohmann::ordered_json* inv : inventories) {
    Inventory i = InventoryFromJson(*inv);
    if (i.target && i.target->fs.free_bytes) size = std::min(size, *i.target->fs.free_bytes / 4);
  }
  return std::max<uint64_t>(size & ~((1ull << 20) - 1), 1ull << 20);
}

std::string TargetKind(const std::string& target) {
  const Scheme* scheme = SchemeOfUrl(target);
  return scheme ? scheme->name : "path";
}

void PrintDiagnosis(const DiagnoseCommandOptions& o, const Diagnosis& d, const DiagnosisRecord& record,
                    const Status& stored) {
  if (o.common.json) {
    std::printf("%s\n", DiagnosisToJson(d).dump(2).c_str());
  } else {
    for (const std::string& line : DiagnosisTable(d)) std::printf("%s\n", line.c_str());
    if (d.id > 0 && stored.ok())
      std::printf("stored as diagnosis d%lld in %s\n", static_cast<long long>(d.id), record.path().c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int DiagnoseCommand(const DiagnoseCommandOptions& o) {
  Result<DiagnoseRequest> request = CheckRequest(o);
  if (!request.ok()) return ReportFailure(request.status());
  const DiagnoseRequest& q = request.value();
  Result<Sites> made = MakeSites(o, q);
  if (!made.ok()) return ReportFailure(made.status());
  Sites& sites = made.value();

  StepContext ctx;
  ctx.client = {sites.client.get(), sites.client->Inventory()};
  ctx.target = {sites.target.get(), sites.target->Inventory()};
  if (sites.agent) ctx.agent = {sites.agent.get(), sites.agent->Inventory()};
  ctx.target_spec = o.target;
  ctx.agent_address = o.agent;
  ctx.token_file = o.token_file;
  std::vector<const nlohmann::ordered_json*> where_files_go = {&ctx.target.inventory};
  if (sites.agent) where_files_go.push_back(&ctx.agent.inventory);
  ctx.size_bytes = TestFileBytes(q, where_files_go);

  EvidenceInput in;
  in.target = sites.target->target().description();
  in.target_kind = TargetKind(o.target);
  in.mode = q.mode;
  in.agent = sites.agent != nullptr;
  in.client_inventory = ctx.target.inventory;
  in.line_rate_mbps = q.line_rate_mbps;
  DiagnosePlanInput plan_input;
  plan_input.mode = q.mode;
  plan_input.step_time_s = q.step_time_s;
  plan_input.agent = in.agent;
  plan_input.size_bytes = ctx.size_bytes;
  if (sites.agent) {
    in.agent_inventory = ctx.agent.inventory;
    plan_input.members = MemberDevices(ctx.agent.inventory);
    if (plan_input.members.empty())
      in.not_measured.push_back("NAS disks: the agent's inventory names no device under its root");
  }
  const DiagnosePlan plan = PlanDiagnose(plan_input);

  Result<RunRecorder> recorder = RunRecorder::Open(o.common, "diagnose");
  if (!recorder.ok()) return ReportFailure(recorder.status());
  const std::string started_at = UtcTimestamp();
  Result<DiagnosisRecord> record = DiagnosisRecord::Begin(o.common, started_at, in.target);
  if (!record.ok()) return ReportFailure(record.status());
  ctx.name = o.common.name;
  ctx.tags = q.tags;
  if (record.value().id() > 0) ctx.tags["diagnosis"] = "d" + std::to_string(record.value().id());
  ctx.recorder = &recorder.value();
  ProgressLine progress(!o.common.json);
  ctx.progress = &progress;

  // The plan first: on stdout, or on stderr when stdout carries the JSON document alone.
  FILE* plan_out = o.common.json ? stderr : stdout;
  for (const std::string& line : PlanLines(plan, in.target)) std::fprintf(plan_out, "%s\n", line.c_str());
  std::fflush(plan_out);

  std::vector<StepOutcome> outcomes;
  std::vector<std::string> errors;
  bool interrupted = false;
  for (size_t i = 0; i < plan.steps.size() && !interrupted; ++i) {
    const DiagnoseStep& step = plan.steps[i];
    if (InterruptRequested()) {
      interrupted = true;
      break;
    }
    std::fprintf(stderr, "step %zu/%zu: %s ... %s\n", i + 1, plan.steps.size(), step.label.c_str(),
                 DurationText(step.seconds).c_str());
    outcomes.push_back(RunStep(step, ctx));
    const StepOutcome& got = outcomes.back();
    if (got.skipped) std::fprintf(stderr, "note: %s\n", got.note.c_str());
    if (got.status.ok()) continue;
    if (got.status.kind() == ErrorKind::kInterrupted || InterruptRequested()) {
      interrupted = true;
      errors.push_back(fmt::format("interrupted at step {} ({})", i + 1, step.label));
    } else {
      errors.push_back(fmt::format("step {} ({}) failed: {}", i + 1, step.label, got.status.message()));
      std::fprintf(stderr, "nasperf: %s\n", errors.back().c_str());
    }
  }
  if (interrupted && (errors.empty() || errors.back().rfind("interrupted", 0) != 0))
    errors.push_back(fmt::format("interrupted before step {}", outcomes.size() + 1));
  // nasperf's files go before anything is printed.
  sites.target->ReleaseTarget();
  sites.client->ReleaseTarget();

  Diagnosis d = Diagnose(GatherEvidence(in, plan, outcomes));
  d.id = record.value().id();
  d.started_at = started_at;
  d.command_line = o.common.command_line;
  d.partial = !errors.empty();
  for (const std::string& e : errors) d.error += (d.error.empty() ? "" : "; ") + e;
  Status stored = record.value().Finish(d);
  PrintDiagnosis(o, d, record.value(), stored);
  if (interrupted) return ExitCodeFor(Status::Interrupted());
  if (d.partial) return 1;
  return ReportFailure(stored);
}

}  // namespace nasperf
