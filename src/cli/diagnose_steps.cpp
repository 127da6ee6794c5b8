// RunStep: one step of a diagnose plan, a job through RunSession or a network test.
#include "cli/diagnose_steps.h"

#include <fmt/format.h>

#include "base/clock.h"
#include "cli/job_options.h"
#include "cli/net_command.h"
#include "model/inventory_json.h"
#include "report/telemetry_text.h"
#include "suite/run_session.h"
#include "sysinfo/telemetry/telemetry.h"
#include "model/job_validate.h"

namespace nasperf {
namespace {

std::string RunName(const StepContext& ctx, const DiagnoseStep& step) {
  return ctx.name.empty() ? step.label : ctx.name + ": " + step.label;
}

// The device's size from the agent's inventory ("/dev/sdb" is "sdb" there), when known.
std::optional<uint64_t> DeviceSize(const nlohmann::ordered_json& inventory, const std::string& device) {
  Inventory inv = InventoryFromJson(inventory);
  if (!inv.target) return std::nullopt;
  const std::string name = device.substr(device.rfind('/') + 1);
  for (const BlockDevice& d : inv.target->devices)
    if (d.name == name && d.size_bytes && *d.size_bytes > 0) return static_cast<uint64_t>(*d.size_bytes);
  return std::nullopt;
}

// The step's job on `target`, as if typed to `run`: its options through the descriptors,
// then direct I/O where this machine's cache would otherwise serve it (as quick decides),
// else buffered with fsync after writes, and reads started cold by the session's policy.
// A target without a client cache (a share, a LUN: the library keeps none) is neither.
Result<JobSpec> StepJob(const DiagnoseStep& step, Target& target, const std::string& spec,
                        std::optional<uint64_t> size) {
  JobInput in;
  in.target = spec;
  in.Give("--rw", step.rw);
  in.Give("--bs", std::to_string(step.bs_bytes));
  in.Give("--qd", std::to_string(step.qd));
  if (!step.engine.empty()) in.Give("--engine", step.engine);
  in.Give("--time", fmt::format("{}", step.seconds));
  if (size && *size > 0) in.Give("--size", std::to_string(*size));
  const bool local = !target.is_null() && target.caps().client_cache;
  std::string why;
  const bool direct = local && target.SupportsDirect(&why);
  if (direct) in.Give("--direct", "");
  Result<JobSpec> job = BuildJob(in, target);
  if (!job.ok()) return job.status();
  JobSpec& j = job.value();
  if (!direct && local && DoesWrites(j.rw)) j.fsync = true;
  if (Status s = ValidateJob(j); !s.ok()) return s;
  if (Status s = target.Check(j); !s.ok()) return s;
  return job;
}

StepOutcome RunJobStep(const DiagnoseStep& step, StepSite& where, StepContext& ctx) {
  StepOutcome out;
  JobSite& site = *where.site;
  std::optional<uint64_t> size = ctx.size_bytes;
  std::string spec;
  if (step.layer == StepLayer::kClient) {
    spec = "null:";
  } else if (step.layer == StepLayer::kProtocol) {
    spec = ctx.target_spec;
  } else {
    // On the agent: its root (the volume) or one member device, read raw and read-only.
    spec = step.layer == StepLayer::kMember ? step.device : ".";
    if (step.layer == StepLayer::kMember) size = DeviceSize(where.inventory, step.device);
    if (Status s = site.MakeTarget(spec, TargetOptions{}); !s.ok()) {
      out.status = s;
      return out;
    }
  }
  if (size && step.layer == StepLayer::kMember) size = std::min(*size, ctx.size_bytes);
  Result<JobSpec> job = StepJob(step, site.target(), spec, size);
  if (!job.ok()) {
    if (step.layer == StepLayer::kMember && job.status().kind() == ErrorKind::kBadInput) {
      // The agent keeps its devices unless told (`agent --allow-device`): a gap, not a failure.
      out.skipped = true;
      out.note = fmt::format("NAS disk {}: the agent did not let it be read ({})", step.device, job.status().message());
      return out;
    }
    out.status = job.status();
    return out;
  }
  ctx.progress->SetLabel(step.label);
  RunSession session(site, *ctx.recorder, *ctx.progress, ctx.tags, false, where.inventory);
  SessionJob one;
  one.job = job.value();
  one.name = RunName(ctx, step);
  one.test = step.label;
  // The client's own CPUs around the protocol job, sampled as the agent samples the NAS's
  // (layout included, as there): whether the client, not the path, held the protocol back.
  std::optional<sysinfo::telemetry::TelemetrySampler> client_cpus;
  if (step.layer == StepLayer::kProtocol) client_cpus.emplace(SummariseTelemetry).Start();
  SessionRun ran = session.Run(one);
  if (client_cpus) out.client_telemetry = client_cpus->Stop();
  ctx.progress->Clear();
  out.ran = ran.began;
  out.result = std::move(ran.result);
  out.status = ran.status.ok() ? ran.stored : ran.status;
  return out;
}

// As `nasperf net HOST --dir D --streams N --time T` does it, stored the same way.
StepOutcome RunNetStep(const DiagnoseStep& step, StepContext& ctx) {
  StepOutcome out;
  NetCommandOptions o;
  o.address = ctx.agent_address;
  o.dir = step.net_dir;
  o.streams = std::to_string(step.streams);
  o.time = fmt::format("{}", step.seconds);
  o.token_file = ctx.token_file;
  o.common.name = RunName(ctx, step);
  Result<NetRequest> request = ParseNetRequest(o);
  if (!request.ok()) {
    out.status = request.status();
    return out;
  }
  request.value().tags = ctx.tags;
  RunResult run = NetRunRecord(o, request.value());
  run.test = step.label;
  net::NetTestOptions options = request.value().test;
  ctx.progress->SetLabel(step.label);
  options.on_sample = [&](const Sample& s) { ctx.progress->Show(s); };
  const std::string started_at = UtcTimestamp();
  net::NetTestOutcome outcome = net::RunNetTest(options);
  ctx.progress->Clear();
  out.status = outcome.status;
  if (!outcome.result.measured) return out;  // nothing moved: nothing to store

  run.inventory = ctx.client.inventory;
  if (Status s = ctx.recorder->Begin(run); !s.ok()) {
    out.status = s;
    return out;
  }
  RunResult begun = run;
  run.started_at = begun.started_at = started_at;
  AddNetFigures(o, outcome, run);
  Status stored = ctx.recorder->Finish(run, begun);
  if (out.status.ok()) out.status = stored;
  out.ran = true;
  out.result = std::move(run);
  out.net = std::move(outcome.result);
  return out;
}

}  // namespace

StepOutcome RunStep(const DiagnoseStep& step, StepContext& ctx) {
  switch (step.layer) {
    case StepLayer::kClient:
      return RunJobStep(step, ctx.client, ctx);
    case StepLayer::kProtocol:
      return RunJobStep(step, ctx.target, ctx);
    case StepLayer::kNetwork:
      return RunNetStep(step, ctx);
    default:
      return RunJobStep(step, ctx.agent, ctx);
  }
}

}  // namespace nasperf
