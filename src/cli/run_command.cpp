// `nasperf run`: one job, printed as a table or the JSON document.
#include <unistd.h>

#include <cstdio>

#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "suite/run_session.h"

namespace nasperf {

int RunCommand(const RunCommandOptions& options) {
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  // Here, or on an agent (--on); an agent may also sample the NAS while we run (--agent).
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(options.remote);
  if (!site.ok()) return ReportFailure(site.status());
  JobSite& here = *site.value();
  Result<TargetOptions> target_options =
      BuildTargetOptions(options.protocol, options.job.target, options.job.allow_destructive);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  if (Status s = here.MakeTarget(options.job.target, target_options.value()); !s.ok()) return ReportFailure(s);
  Result<JobSpec> job = BuildJob(options.job, here.target());
  if (!job.ok()) return ReportFailure(job.status());
  if (Status s = here.target().Check(job.value()); !s.ok()) return ReportFailure(s);
  if (options.remote.on.empty()) NoteStaleFiles(options.job.target);
  if (std::string w = here.target().ReadHoleWarning(job.value()); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
  Result<RunRecorder> recorder = RunRecorder::Open(options.common, "run");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  ProgressLine progress(!options.common.json);
  RunSession session(here, recorder.value(), progress, tags.value(), options.job.drop_caches, here.Inventory());
  SessionJob one;
  one.job = job.value();
  one.name = options.common.name;
  SessionRun ran = session.Run(one);
  if (!ran.began) return ReportFailure(ran.status);
  here.ReleaseTarget();  // removes nasperf's files before anything is printed

  if (options.common.json)
    std::printf("%s\n", DocumentToJson({ran.result}).dump(2).c_str());
  else
    std::printf("%s%s", RunTable(ran.result).c_str(), StoredLine(recorder.value(), {ran.result}).c_str());
  std::fflush(stdout);
  if (!ran.status.ok()) return ReportFailure(ran.status);
  return ReportFailure(ran.stored);
}

}  // namespace nasperf
