// `nasperf quick`: CrystalDiskMark's default set on one test file, median of N runs each.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "suite/cold_reads.h"
#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "core/runner.h"
#include "base/units.h"
#include "proto/url.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "sysinfo/inventory.h"

namespace nasperf {
namespace {

struct QuickTest {
  const char* label;
  bool random;
  uint64_t bs;
  uint32_t qd;
};

constexpr QuickTest kQuickTests[] = {
    {"SEQ1M Q8T1", false, 1 << 20, 8},
    {"SEQ1M Q1T1", false, 1 << 20, 1},
    {"RND4K Q32T1", true, 4096, 32},
    {"RND4K Q1T1", true, 4096, 1},
};

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

}  // namespace

int QuickCommand(const QuickCommandOptions& options) {
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  // Here, or on an agent (--on); an agent may also sample the NAS while we run (--agent).
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(options.remote);
  if (!site.ok()) return ReportFailure(site.status());
  Result<TargetOptions> target_options = BuildTargetOptions(options.protocol, options.job.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  Result<std::unique_ptr<Target>> made = site.value()->MakeTarget(options.job.target, target_options.value());
  if (!made.ok()) return ReportFailure(made.status());
  Target& target = *made.value();
  Result<JobSpec> base = BuildJob(options.job, target);
  if (!base.ok()) return ReportFailure(base.status());
  base.value().time_based = false;  // --time caps each test; one pass of the file is the norm

  // Direct I/O where the file system supports it, like CrystalDiskMark; say so otherwise.
  // A share or LUN has no client cache to bypass or flush: its jobs are neither, as in
  // `run`, so the two compare on the same terms.
  std::vector<std::string> notes;
  std::string why;
  const bool local = !target.is_null() && !IsProtocolUrl(options.job.target);
  bool direct = local && target.SupportsDirect(&why);
  if (!direct && local)
    notes.push_back("O_DIRECT is not supported here (" + why + "): buffered I/O, and writes end with fsync");

  std::vector<JobSpec> jobs;
  bool hole_warning_shown = false;
  for (const QuickTest& test : kQuickTests) {
    for (AccessPattern rw : {test.random ? AccessPattern::kRandRead : AccessPattern::kRead,
                             test.random ? AccessPattern::kRandWrite : AccessPattern::kWrite}) {
      JobSpec job = base.value();
      job.rw = rw;
      job.bs = test.bs;
      job.qd = test.qd;
      job.threads = 1;
      job.direct = direct;
      job.fsync = !direct && local;
      if (Status s = job.Validate(); !s.ok()) return ReportFailure(s);
      if (Status s = target.Check(job); !s.ok()) return ReportFailure(s);
      // Once per invocation, for the first read test: the region is the same for all.
      if (std::string w = hole_warning_shown ? "" : target.ReadHoleWarning(job); !w.empty()) {
        std::fprintf(stderr, "%s\n", w.c_str());
        hole_warning_shown = true;
      }
      jobs.push_back(job);
    }
  }

  if (options.remote.on.empty()) NoteStaleFiles(options.job.target);
  Result<RunRecorder> recorder = RunRecorder::Open(options.common, "quick");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  const nlohmann::ordered_json inventory = site.value()->Inventory(target);
  ProgressLine progress(!options.common.json);
  ColdReads cold_reads(target, options.job.drop_caches);
  std::vector<RunResult> results;
  Status status;
  for (size_t i = 0; i < jobs.size() && status.ok(); ++i) {
    const QuickTest& test = kQuickTests[i / 2];
    const char* direction = DoesReads(jobs[i].rw) ? "read" : "write";
    progress.SetLabel(fmt::format("{} {} ({}/{})", test.label, direction, i + 1, jobs.size()));
    std::string name = options.common.name.empty() ? std::string(test.label) + " " + direction : options.common.name;
    RunResult begun = NewRunRecord(name, tags.value(), target, jobs[i], inventory);
    begun.measured_on = options.remote.on.empty() ? "client" : "nas";
    begun.test = test.label;
    if (status = recorder.value().Begin(begun); !status.ok()) break;
    RunHooks hooks;
    hooks.on_sample = [&](const Sample& s) { progress.Show(s); };
    hooks.before_clock = cold_reads.HookFor(jobs[i]);
    RunOutcome outcome = site.value()->Run(jobs[i], target, RunLabels{name, tags.value()}, hooks);
    progress.Clear();
    cold_reads.AddTo(outcome.result);
    outcome.result.test = test.label;
    outcome.result.notes.insert(outcome.result.notes.end(), notes.begin(), notes.end());
    status = outcome.status;
    Status stored = recorder.value().Finish(outcome.result, begun);
    if (status.ok()) status = stored;
    results.push_back(std::move(outcome.result));
  }
  made.value().reset();  // removes the test file before anything is printed

  if (options.common.json) {
    std::printf("%s\n", DocumentToJson(results).dump(2).c_str());
  } else {
    std::vector<QuickRow> rows;
    for (size_t i = 0; i < results.size(); i += 2)
      rows.push_back({kQuickTests[i / 2].label, &results[i], i + 1 < results.size() ? &results[i + 1] : nullptr});
    const JobSpec& first = jobs.front();
    std::string heading = fmt::format(
        "nasperf quick — {} — {} test file, median of {} runs per test, each up to {:g} s or one pass\n"
        "{}, engine {}; MB/s = 10^6 B/s, IOPS, mean latency in microseconds{}",
        results.empty() ? options.job.target : results.front().target, FormatSize(first.size), first.repeat,
        first.time_s, IoModeText(options.job.target, direct), EnginesUsed(results),
        status.ok() ? "" : "  [PARTIAL]");
    std::printf("%s", QuickTable(heading, rows).c_str());
    // Every run's notes (quick's own are among them), each once: why a row says Q1, what
    // the cold-read check found.
    std::vector<std::string> printed;
    for (const RunResult& r : results)
      for (const std::string& note : r.notes)
        if (std::find(printed.begin(), printed.end(), note) == printed.end()) printed.push_back(note);
    if (results.empty()) printed = notes;
    for (const std::string& note : printed) std::printf("note: %s\n", note.c_str());
    std::printf("%s", StoredLine(recorder.value(), results).c_str());
    if (!status.ok() && !results.empty() && !results.back().error.empty())
      std::printf("stopped early: %s\n", results.back().error.c_str());
  }
  std::fflush(stdout);
  return ReportFailure(status);
}

}  // namespace nasperf
