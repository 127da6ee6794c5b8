// Running a client's job on the agent's own disks.
#include "agent/agent_job.h"

#include "agent/cancellable_engine.h"
#include "cli/cold_reads.h"
#include "core/runner.h"
#include "report/json_report.h"
#include "sysinfo/inventory.h"
#include "sysinfo/telemetry/telemetry.h"
#include "target/directory_target.h"

namespace nasperf {

Result<AgentJobRequest> ParseJobStart(const nlohmann::json& payload, const RootDir& root, bool* path_error) {
  *path_error = false;
  if (!payload.contains("job") || !payload["job"].is_object()) return Status::BadInput("JobStart: missing \"job\" object");
  Result<JobSpec> job = JobFromJson(payload["job"]);
  if (!job.ok()) return Status::BadInput("JobStart: " + job.status().message());
  AgentJobRequest request;
  request.job = job.value();
  if (Status s = request.job.Validate(); !s.ok()) return Status::BadInput("JobStart: " + s.message());
  if (request.job.engine == "null") return Status::BadInput("JobStart: engine null makes no sense on an agent");
  const nlohmann::json& dir = payload.contains("dir") ? payload["dir"] : nlohmann::json(".");
  const nlohmann::json& name = payload.contains("name") ? payload["name"] : nlohmann::json("");
  const nlohmann::json& suite = payload.contains("suite") ? payload["suite"] : nlohmann::json("run");
  if (!dir.is_string() || !name.is_string()) return Status::BadInput("JobStart: \"dir\" and \"name\" must be strings");
  if (suite != "run") return Status::BadInput("JobStart: suite " + suite.dump() + " is not supported (only \"run\")");
  if (payload.contains("repeat")) {
    if (!payload["repeat"].is_number_unsigned() || payload["repeat"].get<uint64_t>() == 0 ||
        payload["repeat"].get<uint64_t>() > 1000)
      return Status::BadInput("JobStart: \"repeat\" must be a count 1-1000");
    request.job.repeat = payload["repeat"].get<uint32_t>();
  }
  request.direct_fallback = payload.value("direct_fallback", false);
  request.check_only = payload.value("check", false);
  request.dir = dir.get<std::string>();
  request.name = name.get<std::string>();
  Result<std::string> real = root.Resolve(request.dir);
  if (!real.ok()) {
    *path_error = true;
    return real.status();
  }
  request.dir_real = real.value();
  return request;
}

namespace {

// O_DIRECT where asked, or (quick's fallback) buffered with fsync; the note says which.
JobSpec EffectiveJob(const AgentJobRequest& request, Target& target, std::string* note) {
  JobSpec job = request.job;
  std::string why;
  if (job.direct && request.direct_fallback && !target.SupportsDirect(&why)) {
    job.direct = false;
    job.fsync = DoesWrites(job.rw);
    *note = "O_DIRECT is not supported here (" + why + "): buffered I/O, and writes end with fsync";
  }
  return job;
}

}  // namespace

Status CheckAgentJob(const AgentJobRequest& request) {
  DirectoryTarget target(request.dir_real);
  std::string note;
  return target.Check(EffectiveJob(request, target, &note));
}

AgentJobOutcome RunAgentJob(const AgentJobRequest& request, const std::atomic<bool>& cancel,
                            const std::function<void(const Sample&)>& on_sample) {
  AgentJobOutcome out;
  // The target is scoped to this function: its destructor removes the .nasperf-* files on
  // every way out, including cancellation.
  DirectoryTarget target(request.dir_real);
  std::string note;
  const JobSpec job = EffectiveJob(request, target, &note);
  if (Status s = target.Check(job); !s.ok()) {
    out.status = s;
    return out;
  }
  sysinfo::telemetry::TelemetrySampler telemetry;
  telemetry.Start();
  // Reads after the layout's writes start cold on the agent too.
  ColdReads cold_reads(target, false);
  RunHooks hooks;
  hooks.on_sample = on_sample;
  hooks.before_clock = cold_reads.HookFor(job);
  hooks.make_engine = [&cancel](const std::string& name) -> Result<std::unique_ptr<Engine>> {
    Result<std::unique_ptr<Engine>> inner = MakeEngine(name);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<Engine>(new CancellableEngine(std::move(inner).value(), cancel));
  };
  RunOutcome outcome = RunRepeated(job, target, RunLabels{request.name, {}}, hooks);
  nlohmann::ordered_json samples = telemetry.Stop();
  RunResult& run = outcome.result;
  if (!note.empty()) run.notes.push_back(note);
  cold_reads.AddTo(run);
  run.inventory = GatherInventory(request.dir_real);
  run.measured_on = "nas";
  run.telemetry = std::move(samples);
  out.status = outcome.status;
  out.runs.push_back(std::move(run));
  return out;
}

}  // namespace nasperf
