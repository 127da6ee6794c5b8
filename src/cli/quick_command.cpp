// `nasperf quick`: CrystalDiskMark's default set on one test file, median of N runs each
// (suite/quick.h runs it); this file parses and prints.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "base/units.h"
#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "suite/quick.h"
#include "suite/run_session.h"

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
  const JobSpec& first = plan.jobs.front();
  std::string heading = fmt::format(
      "nasperf quick — {} — {} test file, median of {} runs per test, each up to {:g} s or one pass\n"
      "{}, engine {}; MB/s = 10^6 B/s, IOPS, mean latency in microseconds{}",
      results.empty() ? options.job.target : results.front().target, FormatSize(first.size), first.repeat,
      first.time_s, IoModeText(options.job.target, plan.direct), EnginesUsed(results),
      outcome.status.ok() ? "" : "  [PARTIAL]");
  std::printf("%s", QuickTable(heading, rows).c_str());
  // Every run's notes (quick's own are among them), each once: why a row says Q1, what
  // the cold-read check found.
  std::vector<std::string> printed;
  for (const RunResult& r : results)
    for (const std::string& note : r.notes)
      if (std::find(printed.begin(), printed.end(), note) == printed.end()) printed.push_back(note);
  if (results.empty()) printed = plan.notes;
  for (const std::string& note : printed) std::printf("note: %s\n", note.c_str());
  std::printf("%s", StoredLine(recorder, results).c_str());
  if (!outcome.status.ok() && !results.empty() && !results.back().error.empty())
    std::printf("stopped early: %s\n", results.back().error.c_str());
}

}  // namespace

int QuickCommand(const QuickCommandOptions& options) {
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  // Here, or on an agent (--on); an agent may also sample the NAS while we run (--agent).
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(options.remote);
  if (!site.ok()) return ReportFailure(site.status());
  JobSite& here = *site.value();
  Result<TargetOptions> target_options = BuildTargetOptions(options.protocol, options.job.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  if (Status s = here.MakeTarget(options.job.target, target_options.value()); !s.ok()) return ReportFailure(s);
  Result<JobSpec> base = BuildJob(options.job, here.target());
  if (!base.ok()) return ReportFailure(base.status());
  std::string hole_warning;
  Result<QuickPlan> plan = PlanQuick(base.value(), here, &hole_warning);
  if (!hole_warning.empty()) std::fprintf(stderr, "%s\n", hole_warning.c_str());
  if (!plan.ok()) return ReportFailure(plan.status());

  if (options.remote.on.empty()) NoteStaleFiles(options.job.target);
  Result<RunRecorder> recorder = RunRecorder::Open(options.common, "quick");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  ProgressLine progress(!options.common.json);
  RunSession session(here, recorder.value(), progress, tags.value(), options.job.drop_caches, here.Inventory());
  QuickOutcome outcome = RunQuick(plan.value(), session, options.common.name);
  here.ReleaseTarget();  // removes the test file before anything is printed

  if (options.common.json)
    std::printf("%s\n", DocumentToJson(outcome.results).dump(2).c_str());
  else
    PrintTable(options, plan.value(), outcome, recorder.value());
  std::fflush(stdout);
  return ReportFailure(outcome.status);
}

}  // namespace nasperf
