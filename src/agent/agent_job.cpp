// Running a client's job on the agent's own disks.
#include "agent/agent_job.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>

#include "agent/cancellable_engine.h"
#include "agent/device_target.h"
#include "model/inventory_json.h"
#include "suite/cold_reads.h"
#include "suite/job_site.h"
#include "suite/run_session.h"
#include "suite/sweep_file.h"
#include "core/runner.h"
#include "model/run_json.h"
#include "sysinfo/inventory.h"
#include "report/telemetry_text.h"
#include "sysinfo/telemetry/telemetry.h"
#include "target/directory_target.h"
#include "proto/engine_registry.h"

namespace nasperf {

Result<AgentJobRequest> PrepareJob(const JobStartMsg& start, const RootDir& root, const DeviceAllowList& devices,
                                   bool* path_error) {
  *path_error = false;
  if (start.job.engine == "null") return Status::BadInput("JobStart: engine null makes no sense on an agent");
  AgentJobRequest request;
  request.job = start.job;
  request.dir = start.dir;
  request.name = start.name;
  request.direct_fallback = start.direct_fallback;
  request.check_only = start.check;
  request.suite = start.suite;
  request.sweep = start.sweep;
  if (!request.dir.empty() && request.dir.front() == '/') {
    Result<const AllowedDevice*> device = devices.Find(request.dir);
    if (!device.ok()) {
      *path_error = true;
      return device.status();
    }
    if (request.suite != "run")
      return Status::BadInput("device " + request.dir + ": a sweep writes files; it needs a directory under --root");
    if (Status s = CheckDeviceJobReadOnly(request.job, request.dir); !s.ok()) return s;
    request.device = device.value();
    return request;
  }
  Result<ResolvedDir> resolved = root.Resolve(request.dir);
  if (!resolved.ok()) {
    *path_error = true;
    return resolved.status();
  }
  request.resolved = std::move(resolved).value();
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

// The target gets its own duplicate of the resolved directory's fd and never opens the
// directory by path (an invalid fd, out of descriptors, fails its Check).
ScopedFd DirFdFor(const AgentJobRequest& request) {
  return ScopedFd(::fcntl(request.resolved.fd.get(), F_DUPFD_CLOEXEC, 0));
}


// The client's sweep as a SweepRequest planned on `file`.
Result<SweepSetup> PrepareAgentSweep(const AgentJobRequest& request, SweepFile& file) {
  const SweepStartMsg& m = request.sweep;
  SweepRequest r;
  r.name = request.name;
  r.base = request.job;
  r.min_bytes = m.min_bytes;
  r.max_bytes = m.max_bytes;
  r.records = m.records;
  for (uint64_t record : r.records)
    if (record > (uint64_t{1} << 30)) return Status::BadInput("JobStart: sweep: a record over the 1 GiB limit");
  std::string tests;
  for (const std::string& t : m.tests) tests += (tests.empty() ? "" : ",") + t;
  Result<std::vector<SweepTest>> parsed = ParseSweepTests(tests);
  if (!parsed.ok()) return Status::BadInput("JobStart: sweep: " + parsed.status().message());
  r.tests = parsed.value();
  r.nas_ram_bytes = m.nas_ram_bytes;
  r.direct = request.job.direct;
  r.fsync = request.job.fsync;
  r.drop_caches = m.drop_caches;
  r.target = request.resolved.real_path;
  std::sort(r.records.begin(), r.records.end());
  r.records.erase(std::unique(r.records.begin(), r.records.end()), r.records.end());
  return PrepareSweep(r, file);
}

}  // namespace

// The inventory reads the target by path (stat, statvfs, a read-only open for btrfs), so
// it is gathered only while that path is still the directory resolved, not a symlink or
// a device a client swapped in; otherwise the run says so and has no target section.
nlohmann::ordered_json InventoryOf(const ResolvedDir& dir) {
  struct stat by_fd {}, by_path {};
  if (::fstat(dir.fd.get(), &by_fd) == 0 && ::lstat(dir.real_path.c_str(), &by_path) == 0 &&
      S_ISDIR(by_path.st_mode) && by_path.st_dev == by_fd.st_dev && by_path.st_ino == by_fd.st_ino)
    return InventoryToJson(GatherInventory(dir.real_path));
  nlohmann::ordered_json inventory = InventoryToJson(GatherInventory("null:"));
  inventory["target_note"] = dir.real_path + " was moved or replaced during the job: target not described";
  return inventory;
}

Status CheckAgentSweep(const AgentJobRequest& request) {
  SweepFile file(DirFdFor(request), request.resolved.real_path);
  Result<SweepSetup> setup = PrepareAgentSweep(request, file);
  return setup.status();
}

SweepOutcome RunAgentSweep(const AgentJobRequest& request, const std::atomic<bool>& cancel, RunSink& sink,
                           SuiteProgress& progress) {
  // Scoped to this function: the sweep's file is removed on every way out.
  SweepFile file(DirFdFor(request), request.resolved.real_path);
  Result<SweepSetup> setup = PrepareAgentSweep(request, file);
  if (!setup.ok()) {
    SweepOutcome out;
    out.status = setup.status();
    return out;
  }
  LocalRunner runner(file, "nas", [&cancel](const std::string& name) -> Result<std::unique_ptr<Engine>> {
    Result<std::unique_ptr<Engine>> inner = MakeEngine(name);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<Engine>(new CancellableEngine(std::move(inner).value(), cancel));
  });
  RunSession session(runner, sink, progress, {}, setup.value().request.drop_caches, InventoryOf(request.resolved));
  return RunSweepPoints(setup.value(), file, session);
}

namespace {

// The job's target: the allowed device, or the directory resolved beneath the root.
std::unique_ptr<Target> JobTarget(const AgentJobRequest& request) {
  if (request.device) return std::make_unique<AllowedDeviceTarget>(*request.device);
  return std::make_unique<DirectoryTarget>(DirFdFor(request), request.resolved.real_path);
}

}  // namespace

Status CheckAgentJob(const AgentJobRequest& request) {
  std::unique_ptr<Target> target = JobTarget(request);
  std::string note;
  return target->Check(EffectiveJob(request, *target, &note));
}

AgentJobOutcome RunAgentJob(const AgentJobRequest& request, const std::atomic<bool>& cancel,
                            const std::function<void(const Sample&)>& on_sample) {
  AgentJobOutcome out;
  // The target is scoped to this function: its destructor removes the .nasperf-* files on
  // every way out, including cancellation.
  std::unique_ptr<Target> owned = JobTarget(request);
  Target& target = *owned;
  std::string note;
  const JobSpec job = EffectiveJob(request, target, &note);
  if (Status s = target.Check(job); !s.ok()) {
    out.status = s;
    return out;
  }
  sysinfo::telemetry::TelemetrySampler telemetry(SummariseTelemetry);
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
  run.inventory =
      request.device ? InventoryToJson(GatherInventory(request.device->path)) : InventoryOf(request.resolved);
  run.measured_on = "nas";
  run.telemetry = std::move(samples);
  out.status = outcome.status;
  out.runs.push_back(std::move(run));
  return out;
}

}  // namespace nasperf
