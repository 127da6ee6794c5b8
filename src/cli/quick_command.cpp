// `nasperf quick`: CrystalDiskMark's default set on one test file, median of N runs each
// (suite/quick.h runs it); this file parses and prints.
#include <algorithm>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "base/units.h"
#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/rank_command.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "cluster/rank_runner.h"
#include "model/run_json.h"
#include "proto/open_app_fs.h"
#include "report/rank_table.h"
#include "report/table_report.h"
#include "suite/fill_volume.h"
#include "suite/quick.h"
#include "suite/run_session.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

// "io_uring (Q8, Q32), psync (Q1)" when auto chose differently by queue depth.
std::string EnginesUsed(const std::vector<RunResult>& results) {
  std::vector<std::pair<std::string, std::string>> engines;  // engine, its queue depths
  for (const RunResult& r : results) {
    std::string qd = "Q" + std::to_string(QueueDepthRun(r));
    auto it = std::find_if(engines.begin(), engines.end(), [&](const auto& e) { return e.first == r.engine; });
    if (it == engines.end()) engines.emplace_back(r.engine, qd);
    else if (it->second.find(qd) == std::string::npos) it->second += ", " + qd;
  }
  if (engines.empty()) return "-";
  if (engines.size() == 1) return engines.front().first;
  std::string out;
  for (const auto& [engine, qds] : engines) out += (out.empty() ? "" : ", ") + engine + " (" + qds + ")";
  return out;
}

void PrintTable(const QuickCommandOptions& options, const QuickPlan& plan, const QuickOutcome& outcome,
                const RunRecorder& recorder) {
  const std::vector<RunResult>& results = outcome.results;
  std::vector<QuickRow> rows;
  for (size_t i = 0; i < results.size(); i += 2)
    rows.push_back({QuickTestOf(i).label, &results[i], i + 1 < results.size() ? &results[i + 1] : nullptr});
  // What ran: the first result's job and ranks (the plan's when nothing ran).
  const JobSpec& first = results.empty() ? plan.jobs.front() : results.front().job;
  const int ranks = results.empty() || !results.front().cluster ? 0 : results.front().cluster->ranks;
  std::string runs = first.repeat == 1 ? "one run per test" : fmt::format("median of {} runs per test", first.repeat);
  if (ranks > 0) runs += fmt::format(" on each of {} ranks (mpirun), figures summed over the ranks", ranks);
  std::string heading = fmt::format(
      "nasperf quick — {} — {} test file, {}, each up to {:g} s or one pass\n"
      "{}, engine {}; MB/s = 10^6 B/s, IOPS, mean latency in microseconds{}",
      results.empty() ? options.job.target : results.front().target, FormatSize(first.size), runs, first.time_s,
      IoModeText(options.job.target, plan.direct), EnginesUsed(results), outcome.status.ok() ? "" : "  [PARTIAL]");
  std::printf("%s", QuickTable(heading, rows).c_str());
  // Every run's notes (quick's own are among them), each once: why a row says Q1, what
  // the cold-read check found.
  // Under mpirun the merge's per-run notes on the ranks (cluster/rank_merge.cpp: the
  // spread, the sum of rates, the rank count) are said once here and per test in the
  // rank lines below; each run keeps them for --json and `results show`.
  std::vector<std::string> printed;
  bool ranks_said = false;
  for (const RunResult& r : results)
    for (const std::string& note : r.notes) {
      if (r.cluster && (note.starts_with("ranks differ: ") || note.starts_with("total MB/s ") ||
                        note.starts_with("ranks: "))) {
        if (!ranks_said)
          printed.push_back(
              "each figure is the sum of the ranks' own rates (not bytes / seconds); the start skew, stonewall "
              "window and spread of each test follow; `results show ID` has every rank");
        ranks_said = true;
        continue;
      }
      if (std::find(printed.begin(), printed.end(), note) == printed.end()) printed.push_back(note);
    }
  if (results.empty()) printed = plan.notes;
  for (const std::string& note : printed) std::printf("note: %s\n", note.c_str());
  for (const RunResult& r : results) std::printf("%s", RanksLine(r.name, r).c_str());
  std::printf("%s", StoredLine(recorder, results).c_str());
  if (!outcome.status.ok() && !results.empty() && !results.back().error.empty())
    std::printf("stopped early: %s\n", results.back().error.c_str());
}

// --fill: the levels, and the AppFileSystem the fill files go into (its own workspace on
// TARGET's volume). Every level is checked against the volume with the test file before
// anything is written. No levels: one pass as the volume is.
struct FillLevels {
  std::vector<double> levels;
  std::unique_ptr<AppFileSystem> fs;
};

Result<FillLevels> OpenFillLevels(const QuickCommandOptions& options, const TargetOptions& target_options,
                                  uint64_t test_file_bytes) {
  FillLevels out;
  if (options.fill.empty()) return out;
  Result<std::vector<double>> levels = ParseFillLevels(options.fill);
  if (!levels.ok()) return levels.status();
  if (!options.remote.on.empty())
    return Status::BadInput("--fill with --on: filling the agent's volume is not supported; run it on the NAS");
  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(options.job.target, target_options);
  if (!fs.ok()) return Status::BadInput("--fill: " + fs.status().message());
  Result<AppSpace> space = fs.value()->Space();
  if (!space.ok()) return space.status();
  const double fullest = *std::max_element(levels.value().begin(), levels.value().end());
  if (Result<uint64_t> need = FillBytesNeeded(space.value(), fullest, test_file_bytes, options.job.target); !need.ok())
    return need.status();
  out.levels = levels.value();
  out.fs = std::move(fs.value());
  return out;
}

}  // namespace

int QuickCommand(const QuickCommandOptions& options, Comm* ranks) {
  const bool quiet_rank = ranks && ranks->rank() != 0;
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  if (ranks && !options.fill.empty())
    return ReportFailure(Status::BadInput(
        "under mpirun: --fill is not supported (every rank would fill the one volume); fill it in one process"));
  // Here, or on an agent (--on); an agent may also sample the NAS while we run (--agent).
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(options.remote);
  if (!site.ok()) return ReportFailure(site.status());
  JobSite& here = *site.value();
  Result<TargetOptions> target_options = BuildTargetOptions(options.protocol, options.job.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  if (ranks) {  // one file or device shared by the ranks: each uses its own region of it
    target_options.value().rank = static_cast<uint32_t>(ranks->rank());
    target_options.value().ranks = static_cast<uint32_t>(ranks->size());
  }
  if (Status s = here.MakeTarget(options.job.target, target_options.value()); !s.ok()) return ReportFailure(s);
  Result<JobSpec> base = BuildJob(options.job, here.target());
  if (!base.ok()) return ReportFailure(base.status());
  if (ranks) {
    if (Status s = CheckRankJob(options.remote, base.value()); !s.ok()) return ReportFailure(s);
    if (Status s = MeetBeforeFiles(*ranks, options.job.target); !s.ok()) return ReportFailure(s);
  }
  std::string hole_warning;
  Result<QuickPlan> plan = PlanQuick(base.value(), here, &hole_warning);
  if (!hole_warning.empty() && !quiet_rank) std::fprintf(stderr, "%s\n", hole_warning.c_str());
  if (!plan.ok()) return ReportFailure(plan.status());
  Result<FillLevels> fill = OpenFillLevels(options, target_options.value(), base.value().size);
  if (!fill.ok()) return ReportFailure(fill.status());

  if (options.remote.on.empty() && !ranks) NoteStaleFiles(options.job.target);
  if (quiet_rank) {
    // Prints nothing on stdout and stores nothing: each of its runs goes to rank 0. Its
    // failure is in rank 0's result and exit status; exiting non-zero here would make
    // mpirun kill rank 0 before it stores the set.
    NoSink none;
    NoProgress silent;
    RankRunner rank(here, *ranks, base.value().stonewall);
    RunSession session(rank, none, silent, tags.value(), options.job.drop_caches, here.Inventory());
    QuickOutcome outcome = RunQuick(plan.value(), session, options.common.name);
    here.ReleaseTarget();
    if (!outcome.status.ok())
      std::fprintf(stderr, "nasperf: rank %d: %s\n", ranks->rank(), outcome.status.message().c_str());
    return 0;
  }
  Result<RunRecorder> recorder = RunRecorder::Open(options.common, "quick");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  ProgressLine progress(!options.common.json);
  if (fill.value().levels.empty()) {
    std::optional<RankRunner> rank;
    if (ranks) rank.emplace(here, *ranks, base.value().stonewall, options.job.target);
    JobRunner& runner = rank ? static_cast<JobRunner&>(*rank) : here;
    RunSession session(runner, recorder.value(), progress, tags.value(), options.job.drop_caches, here.Inventory());
    QuickOutcome outcome = RunQuick(plan.value(), session, options.common.name);
    here.ReleaseTarget();  // removes the test file before anything is printed
    if (options.common.json)
      std::printf("%s\n", DocumentToJson(outcome.results).dump(2).c_str());
    else
      PrintTable(options, plan.value(), outcome, recorder.value());
    std::fflush(stdout);
    return ReportFailure(outcome.status);
  }

  // The set once per fill level (seed 003's 0/33/66 %), each run tagged fill=PCT% and
  // noted with the level statfs measured. A rising level tops the fill up; a lower one
  // starts it again. The filler's files go when it does: after the last level, on an
  // error and on Ctrl-C (each phase stops on the flag, and this unwinds).
  VolumeFiller filler(*fill.value().fs, NewRunSeed());
  std::vector<RunResult> all;
  Status status;
  double last_pct = -1;
  for (double pct : fill.value().levels) {
    if (pct < last_pct) status = filler.Remove();
    last_pct = pct;
    // The test file needs room only until the first level's runs have laid it out.
    const uint64_t reserve_bytes = all.empty() ? base.value().size : 0;
    Result<FillOutcome> filled = status.ok() ? filler.Fill(pct, reserve_bytes) : Result<FillOutcome>(status);
    if (!filled.ok()) {
      status = filled.status();
      break;
    }
    std::map<std::string, std::string> level_tags = tags.value();
    level_tags["fill"] = FillTag(pct);
    QuickPlan level_plan = plan.value();
    level_plan.notes.push_back(FillNote(filled.value()));
    RunSession session(here, recorder.value(), progress, level_tags, options.job.drop_caches, here.Inventory());
    QuickOutcome outcome = RunQuick(level_plan, session, options.common.name);
    if (!options.common.json) {
      std::printf("fill %s (statfs measured %.1f %%)\n", FillTag(pct).c_str(), filled.value().achieved_pct);
      PrintTable(options, level_plan, outcome, recorder.value());
    }
    all.insert(all.end(), outcome.results.begin(), outcome.results.end());
    status = outcome.status;
    if (!status.ok()) break;
  }
  here.ReleaseTarget();
  if (Status s = filler.Remove(); status.ok()) status = s;
  if (Status s = fill.value().fs->RemoveWorkspace(); status.ok()) status = s;
  if (options.common.json) std::printf("%s\n", DocumentToJson(all).dump(2).c_str());
  std::fflush(stdout);
  return ReportFailure(status);
}

}  // namespace nasperf
