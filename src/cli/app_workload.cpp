// RunAppWorkload: one phase per step, in the order that writes nothing before every check passed.
#include "cli/app_workload.h"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "base/clock.h"
#include "base/signals.h"
#include "cli/app_command.h"
#include "cli/commands.h"
#include "cli/run_recorder.h"
#include "cluster/app_rank_runner.h"
#include "model/run_json.h"
#include "proto/open_app_fs.h"
#include "proto/url.h"
#include "suite/app/app_run.h"
#include "suite/fill_volume.h"
#include "target/local_app_fs.h"
#include "workload/run_seed.h"

namespace nasperf {

void AddAppWorkloadOptions(CLI::App& cmd, AppWorkloadOptions& options) {
  AddCommonOptions(cmd, options.common);
  AddProtocolOptions(cmd, options.protocol);
  cmd.add_option("TARGET", options.target, "a directory, smb:// or nfs:// share (default: the current directory)");
  AddFillOption(cmd, options.fill);
  cmd.add_option("--seed", options.seed, "reproduce a dataset: its seed from --json (default: a fresh one)");
}

void AddFillOption(CLI::App& cmd, std::string& fill) {
  cmd.add_option("--fill", fill,
                 "fill the volume with nasperf's own files to PCT % (statfs) before the workload, removed after; "
                 "below 95");
}

Result<AppFillLevel> FillBeforeWorkload(AppFileSystem* fs, const std::string& text, uint64_t reserve_bytes,
                                        uint64_t seed) {
  AppFillLevel level;
  if (text.empty()) return level;
  Result<double> pct = ParseFillPercent(text);
  if (!pct.ok()) return pct.status();
  if (fs == nullptr) return Status::BadInput("--fill: both ends are null:, so there is no volume to fill");
  Result<AppSpace> space = fs->Space();
  if (!space.ok()) return space.status();
  if (Result<uint64_t> need = FillBytesNeeded(space.value(), pct.value(), reserve_bytes, fs->description()); !need.ok())
    return need.status();
  level.filler = std::make_unique<VolumeFiller>(*fs, seed ^ 0xF111ull);
  Result<FillOutcome> filled = level.filler->Fill(pct.value(), reserve_bytes);
  if (!filled.ok()) return filled.status();
  level.requested_pct = pct.value();
  level.achieved_pct = filled.value().achieved_pct;
  level.note = FillNote(filled.value());
  return level;
}

void AppFillLevel::Label(AppRunLabels& labels) const {
  if (!filler) return;
  labels.tags["fill"] = FillTag(requested_pct);
  labels.notes.push_back(note);
  labels.fill_pct = achieved_pct;
}

void AppFillLevel::Label(RunResult& run) const {
  if (!filler) return;
  run.tags["fill"] = FillTag(requested_pct);
  run.notes.push_back(note);
  if (run.app) run.app->fill_pct = achieved_pct;
}

Result<uint64_t> AppSeed(const std::string& text) {
  if (text.empty()) return NewRunSeed();
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.front() < '0' || text.front() > '9' || *end != '\0' || errno != 0 || v > kMaxSeed)
    return Status::BadInput("--seed: '" + text + "' is not a whole number (give the \"seed\" of a stored run)");
  return static_cast<uint64_t>(v);
}

std::function<void(const std::string& prefix)> LostRankCleaner(const std::vector<std::string>& ends) {
  std::vector<std::string> local;
  for (const std::string& e : ends)
    if (!e.empty() && e != "null:" && !IsProtocolUrl(e)) local.push_back(e);
  return [local](const std::string& prefix) {
    for (const std::string& dir : local) {
      std::string left;
      RemoveLostWorkspaces(dir, prefix, &left);
      if (!left.empty()) std::fprintf(stderr, "nasperf: a lost rank left in %s: %s\n", dir.c_str(), left.c_str());
    }
  };
}

Result<std::optional<RunRecorder>> OpenRankRecorder(const CommonOptions& common, const std::string& command,
                                                    Comm* ranks) {
  if (ranks && ranks->rank() != 0) return std::optional<RunRecorder>();
  Result<RunRecorder> opened = RunRecorder::Open(common, command);
  if (!opened.ok()) return opened.status();
  return std::optional<RunRecorder>(std::move(opened).value());
}

int RunAppWorkload(const AppWorkloadOptions& options, const AppWorkload& workload) {
  InstallInterruptHandler();
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  if (options.ranks && !options.fill.empty())
    return ReportFailure(Status::BadInput(
        "under mpirun: --fill is not supported (every rank would fill the one volume); fill it in one process"));
  std::optional<double> fill_pct;
  if (!options.fill.empty()) {
    Result<double> pct = ParseFillPercent(options.fill);
    if (!pct.ok()) return ReportFailure(pct.status());
    fill_pct = pct.value();
  }
  Result<TargetOptions> target_options = BuildTargetOptions(options.protocol, options.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  Result<std::unique_ptr<AppFileSystem>> opened = OpenAppFileSystem(options.target, target_options.value());
  if (!opened.ok()) return ReportFailure(opened.status());
  AppFileSystem& fs = *opened.value();

  // Room for the fill and the dataset (every rank's, under mpirun) with 5 % left, before
  // anything is written.
  const uint64_t clients = options.ranks ? static_cast<uint64_t>(options.ranks->size()) : 1;
  Result<AppSpace> space = fs.Space();
  if (!space.ok()) return ReportFailure(space.status());
  if (Result<uint64_t> need =
          FillBytesNeeded(space.value(), fill_pct.value_or(0), workload.dataset_bytes * clients, fs.description());
      !need.ok())
    return ReportFailure(need.status());
  // Rank 0 (or the one process) stores.
  std::optional<AppRankRunner> ranks;
  if (options.ranks) ranks.emplace(*options.ranks, LostRankCleaner({options.target}));
  Result<std::optional<RunRecorder>> opened_recorder = OpenRankRecorder(options.common, "app", options.ranks);
  if (!opened_recorder.ok()) return ReportFailure(opened_recorder.status());
  std::optional<RunRecorder>& recorder = opened_recorder.value();
  const bool stores = recorder.has_value();

  RunResult run;
  run.name = options.common.name.empty() ? workload.name : options.common.name;
  run.test = workload.name;
  run.target = fs.description();
  run.tags = tags.value();
  AppFigures figures;
  figures.dataset = workload.dataset;
  VolumeFiller filler(fs, workload.dataset.seed ^ 0xF111ull);
  if (fill_pct) {
    Result<FillOutcome> filled = filler.Fill(*fill_pct, workload.dataset_bytes);
    if (!filled.ok()) return ReportFailure(filled.status());
    figures.fill_pct = filled.value().achieved_pct;
    run.tags["fill"] = FillTag(*fill_pct);
    run.notes.push_back(FillNote(filled.value()));
  }
  if (Status s = workload.stage(fs); !s.ok()) return ReportFailure(s);
  // The staged files were just written: this machine's copy is dropped where it can be
  // (and checked); a share's server keeps its own, whose size these commands are not told,
  // so a share's state stays "unknown".
  CacheFacts cache;
  cache.data_bytes = workload.dataset_bytes;
  cache.client_ram_bytes = ClientRamBytes();
  cache.remote_end = IsProtocolUrl(options.target);
  DropClientCaches({&fs}, cache, run.notes);
  figures.cache_state = CacheStateOf(cache);

  if (recorder)
    if (Status s = recorder->Begin(run); !s.ok()) return ReportFailure(s);
  const RunResult begun = run;
  // Every rank's clock starts at one barrier (a rank interrupted there runs nothing).
  Status status = ranks ? ranks->BeforeClock() : Status::Ok();
  OpHistograms histograms;
  if (status.ok()) status = workload.timed(fs, &figures, &run.notes, &histograms);
  figures.to = fs.description();
  run.app = figures;
  if (!status.ok()) {
    run.partial = true;
    run.error = status.kind() == ErrorKind::kInterrupted ? "interrupted" : status.message();
  }
  if (ranks) run = ranks->AfterRun(std::move(run), &histograms, &status);
  Status stored = recorder ? recorder->Finish(run, begun) : Status::Ok();
  // Fill files first, then the workspace: nothing of ours is left when the results print.
  Status removed = filler.Remove();
  if (Status s = fs.RemoveWorkspace(); removed.ok()) removed = s;

  if (!stores) {
    if (!status.ok()) std::fprintf(stderr, "nasperf: rank %d: %s\n", options.ranks->rank(), status.message().c_str());
    return 0;
  }
  PrintAppRuns(options.common, {run}, StoredLine(*recorder, {run}));
  if (!status.ok()) return ReportFailure(status);
  if (!stored.ok()) return ReportFailure(stored);
  return ReportFailure(removed);
}

}  // namespace nasperf
