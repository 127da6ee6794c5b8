// `nasperf run --job FILE`: every job of a job file checked before anything is written,
// then each group's jobs started together (one thread each, a start line after every
// job's prelude), reported per job and as a group, stored as one invocation.
#include <barrier>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "base/signals.h"
#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/job_file_jobs.h"
#include "cli/progress.h"
#include "cli/run_recorder.h"
#include "import/bounded_read.h"
#include "jobfile/toml_job_file.h"
#include "model/group_totals.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "suite/run_session.h"

namespace nasperf {
namespace {

// A job file is a few lines a job; a megabyte is far more than any.
constexpr size_t kMaxJobFileBytes = size_t{1} << 20;

using StartLine = std::barrier<>;

// The site's runner with the group's start line after the prelude of each repeat (its
// files laid out, the cold-read drop done): the group's clocks start together.
class StartLineRunner final : public JobRunner {
 public:
  StartLineRunner(JobRunner& inner, StartLine& line) : inner_(inner), line_(line) {}
  Target& target() override { return inner_.target(); }
  std::string measured_on() const override { return inner_.measured_on(); }
  RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) override {
    RunHooks with_line = hooks;
    with_line.before_clock = [this, prelude = hooks.before_clock]() -> Status {
      if (prelude)
        if (Status s = prelude(); !s.ok()) return s;
      line_.arrive_and_wait();
      return Status::Ok();
    };
    return inner_.Run(job, labels, with_line);
  }

 private:
  JobRunner& inner_;
  StartLine& line_;
};

// The recorder, shared by the group's threads.
class LockedSink final : public RunSink {
 public:
  explicit LockedSink(RunSink& inner) : inner_(inner) {}
  Status Begin(RunResult& run) override {
    std::lock_guard lock(mutex_);
    return inner_.Begin(run);
  }
  Status Finish(RunResult& run, const RunResult& begun) override {
    std::lock_guard lock(mutex_);
    return inner_.Finish(run, begun);
  }

 private:
  RunSink& inner_;
  std::mutex mutex_;
};

// The progress line follows the group's first job only: one line, not several fighting.
class FirstJobProgress final : public SuiteProgress {
 public:
  FirstJobProgress(SuiteProgress& inner, bool first) : inner_(inner), first_(first) {}
  void SetLabel(std::string label) override {
    if (first_) inner_.SetLabel(std::move(label));
  }
  void Show(const Sample& sample) override {
    if (first_) inner_.Show(sample);
  }
  void ShowLabel(const std::string& detail) override {
    if (first_) inner_.ShowLabel(detail);
  }
  void Clear() override {
    if (first_) inner_.Clear();
  }

 private:
  SuiteProgress& inner_;
  bool first_;
};

// One job of the file, checked and ready: its own site and target.
struct PreparedJob {
  BoundFileJob bound;
  std::unique_ptr<JobSite> site;
  JobSpec job;
  nlohmann::ordered_json inventory;
  SessionRun ran;
};

Status RefuseCommandLineJob(const RunCommandOptions& o) {
  if (!o.remote.on.empty() || !o.remote.agent.empty())
    return Status::BadInput("a job file's jobs run on this machine; --on and --agent are not supported with it");
  if (!o.job.given_.empty())
    return Status::BadInput("the job file holds the jobs' options; put " +
                            std::string(o.job.given_.front().option ? o.job.given_.front().option->name : "it") +
                            " in the file ([global] for every job) instead of on the command line");
  if (o.job.drop_caches || !o.job.allow_destructive.empty())
    return Status::BadInput(
        "the job file holds the jobs' options; put drop-caches and allow-destructive in it, not on the command line");
  return Status::Ok();
}

Result<std::vector<PreparedJob>> PrepareJobs(const RunCommandOptions& o, const JobFile& file) {
  Result<std::vector<BoundFileJob>> bound = BindJobFile(file, o.job.target);
  if (!bound.ok()) return bound.status();
  std::vector<PreparedJob> jobs;
  for (BoundFileJob& b : bound.value()) {
    PreparedJob p;
    p.bound = std::move(b);
    p.site = MakeLocalJobSite();
    Result<TargetOptions> target_options =
        BuildTargetOptions(p.bound.protocol, p.bound.input.target, p.bound.input.allow_destructive);
    if (!target_options.ok()) return JobFileError(file, p.bound, target_options.status());
    if (Status s = p.site->MakeTarget(p.bound.input.target, target_options.value()); !s.ok())
      return JobFileError(file, p.bound, s);
    Result<JobSpec> job = BuildJob(p.bound.input, p.site->target());
    if (!job.ok()) return JobFileError(file, p.bound, job.status());
    if (Status s = p.site->target().Check(job.value()); !s.ok()) return JobFileError(file, p.bound, s);
    p.job = job.value();
    jobs.push_back(std::move(p));
  }
  return jobs;
}

// Runs one group's jobs at the same time and waits for all of them.
void RunGroup(const RunCommandOptions& o, const std::map<std::string, std::string>& tags, RunSink& sink,
              SuiteProgress& progress, const std::string& group, std::vector<PreparedJob*>& members) {
  StartLine line(static_cast<std::ptrdiff_t>(members.size()));
  progress.SetLabel("group " + group + " (" + std::to_string(members.size()) + " jobs)");
  std::vector<std::thread> threads;
  for (size_t i = 0; i < members.size(); ++i) {
    threads.emplace_back([&, i] {
      PreparedJob& p = *members[i];
      StartLineRunner runner(*p.site, line);
      FirstJobProgress shown(progress, i == 0);
      RunSession session(runner, sink, shown, tags, p.bound.input.drop_caches, p.inventory);
      SessionJob one;
      one.job = p.job;
      one.name = o.common.name.empty() ? p.bound.name : o.common.name + "/" + p.bound.name;
      one.finish = [&p](RunResult& r) {
        r.job_name = p.bound.name;
        r.job_group = p.bound.group;
        r.notes.insert(r.notes.end(), p.bound.input.file_notes.begin(), p.bound.input.file_notes.end());
      };
      p.ran = session.Run(one);
      // Done (or failed before its start line): the others no longer wait for it.
      line.arrive_and_drop();
    });
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace

int RunJobFileCommand(const RunCommandOptions& o) {
  Result<std::string> text = ReadBoundedFile(o.job_file, kMaxJobFileBytes);
  if (!text.ok()) return ReportFailure(Status::BadInput("--job " + o.job_file + ": " + text.status().message()));
  Result<JobFile> file = ReadTomlJobFile(text.value(), o.job_file);
  if (!file.ok()) return ReportFailure(file.status());
  return RunFileJobs(o, file.value());
}

int RunFileJobs(const RunCommandOptions& o, const JobFile& file) {
  if (Status s = RefuseCommandLineJob(o); !s.ok()) return ReportFailure(s);
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  Result<std::vector<PreparedJob>> prepared = PrepareJobs(o, file);
  if (!prepared.ok()) return ReportFailure(prepared.status());
  std::vector<PreparedJob>& jobs = prepared.value();
  std::vector<std::string> groups;
  for (PreparedJob& p : jobs) {
    if (std::find(groups.begin(), groups.end(), p.bound.group) == groups.end()) groups.push_back(p.bound.group);
    NoteStaleFiles(p.bound.input.target);
    if (std::string w = p.site->target().ReadHoleWarning(p.job); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
    p.inventory = p.site->Inventory();
  }
  Result<RunRecorder> recorder = RunRecorder::Open(o.common, "run");
  if (!recorder.ok()) return ReportFailure(recorder.status());
  LockedSink sink(recorder.value());
  ProgressLine progress(!o.common.json);

  for (const std::string& group : groups) {
    if (InterruptRequested()) break;
    std::vector<PreparedJob*> members;
    for (PreparedJob& p : jobs)
      if (p.bound.group == group) members.push_back(&p);
    RunGroup(o, tags.value(), sink, progress, group, members);
    const bool failed = std::any_of(members.begin(), members.end(), [](PreparedJob* p) { return !p->ran.status.ok(); });
    if (failed) break;  // a failed or interrupted group ends the file
  }
  std::vector<RunResult> runs;
  Status first_failure, first_store_failure;
  for (PreparedJob& p : jobs) {
    p.site->ReleaseTarget();  // removes nasperf's files before anything is printed
    if (!p.ran.began) {
      if (!p.ran.status.ok() && first_failure.ok() && p.ran.status.kind() != ErrorKind::kNone)
        first_failure = p.ran.status;
      continue;
    }
    runs.push_back(p.ran.result);
    if (!p.ran.status.ok() && first_failure.ok()) first_failure = p.ran.status;
    if (!p.ran.stored.ok() && first_store_failure.ok()) first_store_failure = p.ran.stored;
  }

  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(runs);
    nlohmann::ordered_json out_groups = nlohmann::ordered_json::array();
    for (const std::string& g : GroupsOf(runs)) out_groups.push_back(GroupToJson(SumGroup(runs, g)));
    doc["groups"] = out_groups;
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    for (const std::string& g : GroupsOf(runs)) {
      for (const RunResult& r : runs)
        if (r.job_group == g) std::printf("%s\n", RunTable(r).c_str());
      GroupTotals totals = SumGroup(runs, g);
      if (totals.jobs.size() > 1) std::printf("%s\n", GroupTable(totals).c_str());  // one job: its own table says it
    }
    std::printf("%s", StoredLine(recorder.value(), runs).c_str());
  }
  std::fflush(stdout);
  if (!first_failure.ok()) return ReportFailure(first_failure);
  return ReportFailure(first_store_failure);
}

}  // namespace nasperf
