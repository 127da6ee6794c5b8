// RemoteSite's sweep: the agent runs it and sends each point; they are stored here.
#include "suite/remote_site.h"
#include "model/run_json.h"
#include "suite/sweep_summary.h"

namespace nasperf {

// What RunSweep has received so far.
struct RemoteSite::SweepState {
  SweepOutcome out;
  std::optional<RunResult> begun;
  RunResult labels;  // what every point is labelled with here
  Status sink_status;
};

SweepOutcome RemoteSite::RunSweep(RunSink& sink, SuiteProgress& progress) {
  SweepState sweep;
  if (!broken_.ok()) return FailSweep(sweep, progress, broken_);
  if (Status s = conn_.Send(MessageType::kJobStart, SweepPayload(*sweep_)); !s.ok())
    return FailSweep(sweep, progress, Status::Io("agent " + where() + ": " + s.message()));
  JobFrames frames(*this);
  sweep.labels.name = sweep_->name.empty() ? "sweep" : sweep_->name;
  sweep.labels.tags = sweep_->tags;
  sweep.labels.target = target_->description();
  while (true) {
    Result<std::optional<Frame>> got = frames.Next();
    if (!got.ok()) return FailSweep(sweep, progress, got.status());
    if (!got.value()) continue;
    const Frame& frame = *got.value();
    Status failed;
    switch (frame.type) {
      case MessageType::kJobSample:
        progress.Show(SampleOf(frame));
        break;
      case MessageType::kJobProgress:
        progress.SetLabel(frame.payload.value("label", std::string()));
        progress.ShowLabel(frame.payload.value("detail", std::string()));
        break;
      case MessageType::kJobRunStart:
        failed = PointBegun(frame, sweep, sink, frames);
        break;
      case MessageType::kJobRun:
        progress.Clear();
        failed = PointDone(frame, sweep, sink);
        break;
      case MessageType::kJobDone:
        progress.Clear();
        failed = SweepDone(frame, sweep, frames);
        if (failed.ok()) return std::move(sweep.out);
        break;
      default:
        break;  // Ping: the agent's heartbeat
    }
    if (!failed.ok()) return FailSweep(sweep, progress, std::move(failed));
  }
}

SweepOutcome RemoteSite::FailSweep(SweepState& sweep, SuiteProgress& progress, Status s) {
  progress.Clear();
  sweep.out.status = Fail(std::move(s));
  sweep.out.summary.partial = true;
  sweep.out.summary.target = target_->description();
  return std::move(sweep.out);
}

Status RemoteSite::PointBegun(const Frame& frame, SweepState& sweep, RunSink& sink, JobFrames& frames) {
  Result<RunResult> run =
      Received(frame.payload.value("run", nlohmann::json()), frame.payload, "JobRunStart", sweep.labels);
  if (!run.ok()) return run.status();
  sweep.begun = std::move(run).value();
  if (Status s = sink.Begin(*sweep.begun); !s.ok() && sweep.sink_status.ok()) {
    sweep.sink_status = s;  // stop the sweep as a local one stops, before this point
    frames.Cancel();
  }
  return Status::Ok();
}

Status RemoteSite::PointDone(const Frame& frame, SweepState& sweep, RunSink& sink) {
  Result<RunResult> run = Received(frame.payload.value("run", nlohmann::json()), frame.payload, "JobRun", sweep.labels);
  if (!run.ok()) return run.status();
  if (!sweep.begun) return Status::Io("agent " + where() + ": JobRun without JobRunStart");
  RunResult point = std::move(run).value();
  if (Status s = sink.Finish(point, *sweep.begun); !s.ok() && sweep.out.status.ok()) sweep.out.status = s;
  sweep.begun.reset();
  sweep.out.points.push_back(std::move(point));
  return Status::Ok();
}

Status RemoteSite::SweepDone(const Frame& frame, SweepState& sweep, JobFrames& frames) {
  Result<SweepSummary> summary = SweepFromJson(nlohmann::ordered_json(frame.payload.value("sweep", nlohmann::json())));
  if (!summary.ok()) return Status::Io("agent " + where() + ": JobDone: " + summary.status().message());
  SweepOutcome& out = sweep.out;
  out.summary = std::move(summary).value();
  out.summary.target = target_->description();
  out.summary.id = 0;
  if (frame.payload.contains("error")) {
    std::string why = frame.payload.value("error", std::string("stopped early"));
    Status stopped = !sweep.sink_status.ok() ? sweep.sink_status
                     : frames.cancelled()    ? Status::Interrupted()
                                             : Status::Io("agent " + where() + ": " + why);
    out.status = stopped;
  }
  out.summary.partial = !out.status.ok();
  out.summary.curves = AnalyseCurves(out.points, out.summary);
  return Status::Ok();
}

nlohmann::json RemoteSite::SweepPayload(const SweepRequest& r) const {
  nlohmann::json tests = nlohmann::json::array();
  for (SweepTest t : r.tests) tests.push_back(ToString(t));
  nlohmann::json sweep = {
      {"min_bytes", r.min_bytes}, {"records", r.records}, {"tests", tests}, {"drop_caches", r.drop_caches}};
  if (r.max_bytes) sweep["max_bytes"] = *r.max_bytes;
  if (r.nas_ram_bytes) sweep["nas_ram_bytes"] = *r.nas_ram_bytes;
  return {{"job", nlohmann::json(JobToJson(r.base, r.base.engine))},
          {"dir", target_->dir()},
          {"name", r.name},
          {"suite", "sweep"},
          {"repeat", r.base.repeat},
          {"sweep", sweep}};
}

}  // namespace nasperf
