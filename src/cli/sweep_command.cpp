// `nasperf sweep`: iozone's file-size sweep on one directory or share — every (size,
// record, test) point a stored run, cold reads verified cold, and the cache analysis of
// each curve (suite/sweep_run.h runs it, here or on an agent with --on). The sweep is
// one invocation in the store, with its summary. This file parses and prints.
#include <cstdio>

#include <fmt/format.h>

#include "base/units.h"
#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/protocol_options.h"
#include "cli/remote_job.h"
#include "cli/run_recorder.h"
#include "model/run_json.h"
#include "report/sweep_report.h"
#include "suite/job_site.h"
#include "suite/sweep_run.h"

namespace nasperf {
namespace {

// What a share (smb://, nfs://) cannot do that a local directory can: its client library
// keeps no cache, so there is nothing here to bypass or drop, and only the NAS's RAM
// bounds the cached part of the curve.
Status CheckShareOptions(const SweepCommandOptions& o, JobSite& site) {
  if (site.SweepTargetCaches()) return Status::Ok();
  const std::string target = site.target().description();
  if (o.direct)
    return Status::BadInput("--direct: " + target + " has no client cache to bypass (every I/O goes to the server; "
                            "the NAS's own cache stays in play)");
  if (o.drop_caches)
    return Status::BadInput("--drop-caches: " + target + " has no client cache, and this machine cannot drop the NAS's");
  if (o.max.empty() && o.nas_ram.empty())
    return Status::BadInput("sweep: " + target + " has no client cache, so the default --max (twice the RAM that can "
                            "cache the file) needs the NAS's RAM: give --nas-ram SIZE or --max SIZE");
  return Status::Ok();
}

// The options, parsed and checked against the target; planning is the site's.
Result<SweepRequest> ParseRequest(const SweepCommandOptions& o, JobSite& site) {
  SweepRequest request;
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return tags.status();
  request.tags = tags.value();
  request.name = o.common.name;
  if (Status s = CheckShareOptions(o, site); !s.ok()) return s;

  JobInput job_options;
  job_options.Give("--rw", "write");
  job_options.Give("--qd", "1");
  job_options.Give("--threads", "1");
  job_options.Give("--size", "1m");
  job_options.Give("--bs", "4k");
  job_options.Give("--repeat", o.repeat);
  // psync, like iozone, unless the user chose; a share uses its protocol's engine.
  job_options.Give("--engine", !o.engine.empty() ? o.engine : site.target().required_engine() ? "auto" : "psync");
  job_options.Give("--pattern", o.pattern);
  if (o.direct) job_options.Give("--direct", "");
  if (o.fsync) job_options.Give("--fsync", "");
  Result<JobSpec> base = BuildJob(job_options, site.target());
  if (!base.ok()) return base.status();
  request.base = base.value();

  Result<uint64_t> min = ParseSize(o.min);
  if (!min.ok()) return Status::BadInput("--min: " + min.status().message());
  request.min_bytes = min.value();
  if (!o.max.empty()) {
    Result<uint64_t> max = ParseSize(o.max);
    if (!max.ok()) return Status::BadInput("--max: " + max.status().message());
    request.max_bytes = max.value();
  }
  Result<std::vector<uint64_t>> records = ParseRecordList(o.record);
  if (!records.ok()) return records.status();
  request.records = records.value();
  Result<std::vector<SweepTest>> tests = ParseSweepTests(o.tests);
  if (!tests.ok()) return tests.status();
  request.tests = tests.value();
  if (!o.nas_ram.empty()) {
    Result<uint64_t> nas = ParseSize(o.nas_ram);
    if (!nas.ok() || nas.value() == 0) return Status::BadInput("--nas-ram: '" + o.nas_ram + "' is not a size like 512m");
    request.nas_ram_bytes = nas.value();
  }
  request.direct = o.direct;
  request.fsync = o.fsync;
  request.drop_caches = o.drop_caches;
  request.target = o.target;
  return request;
}

void PrintTable(const SweepSummary& summary, const SweepOutcome& outcome, const Status& status,
                const RunRecorder& recorder) {
  const std::vector<RunResult>& points = outcome.points;
  std::printf("%s", SweepTable(summary, points).c_str());
  if (recorder.enabled() && recorder.all_stored() && summary.id)
    std::printf("stored as sweep s%lld (runs %lld-%lld) in %s\n", static_cast<long long>(summary.id),
                static_cast<long long>(points.empty() ? 0 : points.front().id),
                static_cast<long long>(points.empty() ? 0 : points.back().id), recorder.path().c_str());
  if (!status.ok() && !points.empty() && !points.back().error.empty())
    std::printf("stopped early: %s\n", points.back().error.c_str());
}

}  // namespace

int SweepCommand(const SweepCommandOptions& o) {
  Result<std::unique_ptr<JobSite>> site = MakeJobSite(o.remote);
  if (!site.ok()) return ReportFailure(site.status());
  JobSite& here = *site.value();
  Result<TargetOptions> target_options = BuildTargetOptions(o.protocol, o.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  if (Status s = here.MakeSweepTarget(o.target, target_options.value()); !s.ok()) return ReportFailure(s);
  Result<SweepRequest> request = ParseRequest(o, here);
  if (!request.ok()) return ReportFailure(request.status());
  if (Status s = here.PrepareSweep(request.value()); !s.ok()) return ReportFailure(s);
  if (o.remote.on.empty()) NoteStaleFiles(o.target);
  Result<RunRecorder> recorder = RunRecorder::Open(o.common, "sweep");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  ProgressLine progress(!o.common.json);
  SweepOutcome outcome = here.RunSweep(recorder.value(), progress);
  here.ReleaseTarget();  // removes the test file (on a share too) before anything is printed
  SweepSummary& summary = outcome.summary;
  Status status = outcome.status;
  summary.id = recorder.value().invocation_id();  // made with the first point
  Status summarised = recorder.value().SetSummary(SweepToJson(summary));
  if (status.ok()) status = summarised;
  progress.Clear();

  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(outcome.points);
    doc["sweep"] = SweepToJson(summary);
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    PrintTable(summary, outcome, status, recorder.value());
  }
  std::fflush(stdout);
  return ReportFailure(status);
}

}  // namespace nasperf
