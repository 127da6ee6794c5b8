// `nasperf run`: one job, printed as a table or the JSON document.
#include <unistd.h>

#include <cstdio>

#include "cli/clean_command.h"
#include "suite/cold_reads.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "core/runner.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "sysinfo/inventory.h"

namespace nasperf {

int RunCommand(const RunCommandOptions& options) {
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  // Here, or on an agent (--on); an agent may also sample the NAS while we run (--agent).
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(options.remote);
  if (!site.ok()) return ReportFailure(site.status());
  Result<TargetOptions> target_options =
      BuildTargetOptions(options.protocol, options.job.target, options.job.allow_destructive);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  Result<std::unique_ptr<Target>> target = site.value()->MakeTarget(options.job.target, target_options.value());
  if (!target.ok()) return ReportFailure(target.status());
  Result<JobSpec> job = BuildJob(options.job, *target.value());
  if (!job.ok()) return ReportFailure(job.status());
  if (Status s = target.value()->Check(job.value()); !s.ok()) return ReportFailure(s);
  if (options.remote.on.empty()) NoteStaleFiles(options.job.target);
  if (std::string w = target.value()->ReadHoleWarning(job.value()); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
  Result<RunRecorder> recorder = RunRecorder::Open(options.common, "run");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  RunResult begun = NewRunRecord(options.common.name, tags.value(), *target.value(), job.value(),
                                 site.value()->Inventory(*target.value()));
  begun.measured_on = options.remote.on.empty() ? "client" : "nas";
  if (Status s = recorder.value().Begin(begun); !s.ok()) return ReportFailure(s);
  ProgressLine progress(!options.common.json);
  ColdReads cold_reads(*target.value(), options.job.drop_caches);
  RunHooks hooks;
  hooks.on_sample = [&](const Sample& s) { progress.Show(s); };
  hooks.before_clock = cold_reads.HookFor(job.value());
  RunOutcome outcome =
      site.value()->Run(job.value(), *target.value(), RunLabels{options.common.name, tags.value()}, hooks);
  progress.Clear();
  cold_reads.AddTo(outcome.result);
  target.value().reset();  // removes nasperf's files before anything is printed
  Status stored = recorder.value().Finish(outcome.result, begun);

  if (options.common.json)
    std::printf("%s\n", DocumentToJson({outcome.result}).dump(2).c_str());
  else
    std::printf("%s%s", RunTable(outcome.result).c_str(), StoredLine(recorder.value(), {outcome.result}).c_str());
  std::fflush(stdout);
  if (!outcome.status.ok()) return ReportFailure(outcome.status);
  return ReportFailure(stored);
}

}  // namespace nasperf
