// PlanQuick and RunQuick.
#include "suite/quick.h"
#include "model/job_validate.h"

#include <fmt/format.h>


namespace nasperf {

Result<QuickPlan> PlanQuick(const JobSpec& base_job, JobSite& site,
                            std::string* hole_warning) {
  QuickPlan plan;
  Target& target = site.target();
  JobSpec base = base_job;
  base.time_based = false;  // --time caps each test; one pass of the file is the norm

  // Direct I/O where the file system supports it, like CrystalDiskMark; say so otherwise.
  // A share or LUN has no client cache to bypass or flush: its jobs are neither, as in
  // `run`, so the two compare on the same terms.
  std::string why;
  const bool local = !target.is_null() && target.caps().client_cache;
  plan.direct = local && target.SupportsDirect(&why);
  if (!plan.direct && local)
    plan.notes.push_back("O_DIRECT is not supported here (" + why + "): buffered I/O, and writes end with fsync");

  bool hole_warning_shown = false;
  for (const QuickTest& test : kQuickTests) {
    for (AccessPattern rw : {test.random ? AccessPattern::kRandRead : AccessPattern::kRead,
                             test.random ? AccessPattern::kRandWrite : AccessPattern::kWrite}) {
      JobSpec job = base;
      job.rw = rw;
      job.bs = test.bs;
      job.qd = test.qd;
      job.threads = 1;
      job.direct = plan.direct;
      job.fsync = !plan.direct && local;
      if (Status s = ValidateJob(job); !s.ok()) return s;
      if (Status s = target.Check(job); !s.ok()) return s;
      // Once per invocation, for the first read test: the region is the same for all.
      if (std::string w = hole_warning_shown ? "" : target.ReadHoleWarning(job); !w.empty()) {
        *hole_warning = w;
        hole_warning_shown = true;
      }
      plan.jobs.push_back(job);
    }
  }
  return plan;
}

QuickOutcome RunQuick(const QuickPlan& plan, RunSession& session, const std::string& name) {
  QuickOutcome out;
  for (size_t i = 0; i < plan.jobs.size() && out.status.ok(); ++i) {
    const QuickTest& test = QuickTestOf(i);
    const char* direction = DoesReads(plan.jobs[i].rw) ? "read" : "write";
    session.progress().SetLabel(fmt::format("{} {} ({}/{})", test.label, direction, i + 1, plan.jobs.size()));
    SessionJob job;
    job.job = plan.jobs[i];
    job.name = name.empty() ? std::string(test.label) + " " + direction : name;
    job.test = test.label;
    job.finish = [&plan](RunResult& r) { r.notes.insert(r.notes.end(), plan.notes.begin(), plan.notes.end()); };
    SessionRun ran = session.Run(job);
    out.status = ran.status;
    if (!ran.began) break;
    if (out.status.ok()) out.status = ran.stored;
    out.results.push_back(std::move(ran.result));
  }
  return out;
}

}  // namespace nasperf
