// `nasperf run`: one job, printed as a table or the JSON document.
#include <unistd.h>

#include <cstdio>
#include <optional>

#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/rank_command.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "cluster/comm.h"
#include "cluster/rank_runner.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "suite/run_session.h"

namespace nasperf {
namespace {

// run's options with --fio-job's or --iometer's one job applied (cli/spec_job_file.h).
Result<RunCommandOptions> WithSpecJob(const RunCommandOptions& given, const JobFile& file) {
  RunCommandOptions options = given;
  if (Status s = ApplySpecJob(file, options.job, options.common.name); !s.ok()) return s;
  return options;
}

// The job options typed on the command line, as the last settings of every job of `file`:
// they win over the file's, as they do over a file of one job. A typed option whose text
// does not parse is refused here, named as typed.
Result<JobFile> WithCommandLineOverEveryJob(const JobInput& typed, JobFile file) {
  for (const JobInput::Given& g : typed.given_) {
    if (!g.parsed.ok()) return g.parsed;
    if (!g.option) continue;
    for (FileJob& job : file.jobs) job.settings.push_back({std::string(g.option->name).substr(2), g.text, job.line});
  }
  if (typed.drop_caches)
    for (FileJob& job : file.jobs) job.settings.push_back({"drop-caches", "", job.line});
  return file;
}

}  // namespace

int RunCommand(const RunCommandOptions& given, Comm* ranks) {
  if (ranks && (!given.job_file.empty() || given.specs.any()))
    return ReportFailure(Status::BadInput(
        "under mpirun: --job, --fio-job and --iometer are not supported (each rank runs the job of its command line)"));
  if (!given.job_file.empty()) return RunJobFileCommand(given);
  std::optional<RunCommandOptions> with_job;
  if (given.specs.any()) {
    Result<JobFile> file = ReadSpecJobFile(given.specs);
    if (!file.ok()) return ReportFailure(file.status());
    // Several jobs (fio sections, groups by stonewall, an Iometer spec's workers of several
    // depths) run as `run --job` runs them, with the options typed here over every job's.
    if (file.value().jobs.size() > 1) {
      Result<JobFile> jobs = WithCommandLineOverEveryJob(given.job, std::move(file).value());
      if (!jobs.ok()) return ReportFailure(jobs.status());
      RunCommandOptions options = given;
      options.job.given_.clear();
      options.job.drop_caches = false;
      return RunFileJobs(options, jobs.value());
    }
    Result<RunCommandOptions> one = WithSpecJob(given, file.value());
    if (!one.ok()) return ReportFailure(one.status());
    with_job = std::move(one).value();
  }
  const RunCommandOptions& options = with_job ? *with_job : given;
  const bool quiet_rank = ranks && ranks->rank() != 0;
  Result<std::map<std::string, std::string>> tags = ParseTags(options.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  // Here, or on an agent (--on); an agent may also sample the NAS while we run (--agent).
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(options.remote);
  if (!site.ok()) return ReportFailure(site.status());
  JobSite& here = *site.value();
  Result<TargetOptions> target_options =
      BuildTargetOptions(options.protocol, options.job.target, options.job.allow_destructive);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  if (ranks) {  // one file or device shared by the ranks: each uses its own region of it
    target_options.value().rank = static_cast<uint32_t>(ranks->rank());
    target_options.value().ranks = static_cast<uint32_t>(ranks->size());
  }
  if (Status s = here.MakeTarget(options.job.target, target_options.value()); !s.ok()) return ReportFailure(s);
  Result<JobSpec> job = BuildJob(options.job, here.target());
  if (!job.ok()) return ReportFailure(job.status());
  if (ranks) {
    if (Status s = MeetBeforeFiles(*ranks, options.job.target); !s.ok()) return ReportFailure(s);
  }
  if (Status s = here.target().Check(job.value()); !s.ok()) return ReportFailure(s);
  if (ranks) {
    if (Status s = CheckRankJob(options.remote, job.value()); !s.ok()) return ReportFailure(s);
  }
  if (options.remote.on.empty() && !ranks) NoteStaleFiles(options.job.target);
  if (std::string w = here.target().ReadHoleWarning(job.value()); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
  if (quiet_rank) {
    // Prints nothing on stdout and stores nothing: its run goes to rank 0.
    NoSink none;
    NoProgress silent;
    RankRunner rank(here, *ranks, job.value().stonewall);
    RunSession session(rank, none, silent, tags.value(), options.job.drop_caches, here.Inventory());
    SessionJob one;
    one.job = job.value();
    SessionRun ran = session.Run(one);
    here.ReleaseTarget();
    // Its failure is in rank 0's result and exit status. Exiting non-zero here would make
    // mpirun kill rank 0 before it stores the run.
    if (!ran.status.ok()) std::fprintf(stderr, "nasperf: rank %d: %s\n", ranks->rank(), ran.status.message().c_str());
    return 0;
  }
  Result<RunRecorder> recorder = RunRecorder::Open(options.common, "run");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  ProgressLine progress(!options.common.json);
  std::optional<RankRunner> rank;
  if (ranks) rank.emplace(here, *ranks, job.value().stonewall, options.job.target);
  JobRunner& runner = rank ? static_cast<JobRunner&>(*rank) : here;
  RunSession session(runner, recorder.value(), progress, tags.value(), options.job.drop_caches, here.Inventory());
  SessionJob one;
  one.job = job.value();
  one.name = options.common.name;
  one.finish = [&options](RunResult& r) {
    r.notes.insert(r.notes.end(), options.job.file_notes.begin(), options.job.file_notes.end());
  };
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
