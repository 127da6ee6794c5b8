// A control connection's jobs and sweeps: JobStart, the job thread, JobDone.
#include <functional>

#include "agent/agent_app.h"
#include "agent/control_session.h"
#include "agent/session_common.h"
#include "model/run_json.h"
#include "suite/sweep_summary.h"

namespace nasperf {
namespace {

using std::chrono::milliseconds;

// A run for JobDone: RunToJson plus where it was measured and its telemetry (whether or
// not RunToJson writes them), trimmed to fit in one frame: a long run's telemetry series
// is dropped before the frame would pass 1 MiB, its summary kept.
nlohmann::json RunForWire(const RunResult& r) {
  nlohmann::json j = nlohmann::json(RunToJson(r));
  j["measured_on"] = r.measured_on;
  if (!r.telemetry.is_null()) j["telemetry"] = nlohmann::json(r.telemetry);
  if (j.dump().size() > kMaxPayload / 2 && j["telemetry"].is_object() && j["telemetry"].contains("samples")) {
    j["telemetry"]["samples"] = nlohmann::json::array();
    j["notes"].push_back("telemetry series dropped (too long for one agent frame); summary kept");
  }
  return j;
}

int64_t NowMs() { return std::chrono::duration_cast<milliseconds>(AgentNow().time_since_epoch()).count(); }

}  // namespace

// A sweep's points to the client as they begin and end (JobRunStart, JobRun): the
// client stores them as it stores its own.
class ControlSession::FrameSink final : public RunSink {
 public:
  explicit FrameSink(ControlSession& session) : session_(session) {}
  Status Begin(RunResult& run) override {
    session_.Send(MessageType::kJobRunStart, {{"run", RunForWire(run)}});
    return Status::Ok();
  }
  Status Finish(RunResult& run, const RunResult&) override {
    run.measured_on = "nas";
    session_.Send(MessageType::kJobRun, {{"run", RunForWire(run)}, {"inventory", nlohmann::json(run.inventory)}});
    return Status::Ok();
  }

 private:
  ControlSession& session_;
};

// A sweep's progress: samples as JobSample, each point's label as JobProgress.
class ControlSession::FrameProgress final : public SuiteProgress {
 public:
  FrameProgress(ControlSession& session, std::function<void(const Sample&)> send_sample)
      : session_(session), send_sample_(std::move(send_sample)) {}
  void SetLabel(std::string label) override { label_ = std::move(label); }
  void Show(const Sample& s) override { send_sample_(s); }
  void ShowLabel(const std::string& detail) override {
    session_.Send(MessageType::kJobProgress, {{"label", label_}, {"detail", detail}});
  }
  void Clear() override {}

 private:
  ControlSession& session_;
  std::function<void(const Sample&)> send_sample_;
  std::string label_;
};

// A running job's watcher thread: folds the two outer flags (JobCancel or this connection
// closing, the agent shutting down) into the one the engines read, and fills silence with Ping.
class ControlSession::JobWatch {
 public:
  explicit JobWatch(ControlSession& session) : session_(session) {
    last_sent_ms_.store(NowMs());
    watcher_ = std::thread([this] { Watch(); });
  }
  ~JobWatch() { Stop(); }

  void Stop() {
    if (!watcher_.joinable()) return;
    done_.store(true);
    watcher_.join();
  }
  const std::atomic<bool>& cancel() const { return cancel_; }
  void SendSample(const Sample& s) {
    session_.Send(MessageType::kJobSample,
                  {{"t_s", s.t_s}, {"read_mb_per_s", s.read_mb_per_s}, {"write_mb_per_s", s.write_mb_per_s}});
    last_sent_ms_.store(NowMs());
  }

 private:
  void Watch() {
    while (!done_.load()) {
      if (session_.job_cancel_.load() || session_.ctx_.shutting_down.load()) cancel_.store(true);
      if (NowMs() - last_sent_ms_.load() > 1000) {
        session_.Send(MessageType::kPing, nlohmann::json::object());
        last_sent_ms_.store(NowMs());
      }
      std::this_thread::sleep_for(milliseconds(50));
    }
  }

  ControlSession& session_;
  // Cancelled by JobCancel, by this connection closing, or by the agent shutting down.
  std::atomic<bool> cancel_{false};
  std::atomic<bool> done_{false};
  // Samples only come while the clock runs; laying out a large file for a read job
  // can take longer than the client's 3 s of patience, so silence is filled with Ping.
  std::atomic<int64_t> last_sent_ms_{0};
  std::thread watcher_;
};

void ControlSession::StartJob(const JobStartMsg& start) {
  if (job_running_.load()) return SendError(Status::BadInput("JobStart: a job is already running on this connection"));
  if (job_thread_.joinable()) job_thread_.join();  // the last job's thread, finishing its JobDone
  if (start.suite == "app") return StartApp(start);
  bool path_error = false;
  // A refused device request is logged: the administrator sees who asked for what.
  const bool device = !start.dir.empty() && start.dir.front() == '/';
  Result<AgentJobRequest> request = PrepareJob(start, ctx_.root, ctx_.devices, &path_error);
  if (!request.ok()) {
    if (device) AgentLog(peer_, "refused: " + request.status().message());
    return SendError(request.status(), path_error ? "path" : "bad_request");
  }
  const bool sweep = request.value().suite == "sweep";
  if (request.value().check_only) {
    if (Status s = sweep ? CheckAgentSweep(request.value()) : CheckAgentJob(request.value()); !s.ok()) {
      if (device) AgentLog(peer_, "refused: " + s.message());
      return SendError(s);
    }
    return Send(MessageType::kJobDone, {{"runs", nlohmann::json::array()}, {"inventory", nlohmann::json::object()}});
  }
  bool idle = false;
  if (!ctx_.job_busy.compare_exchange_strong(idle, true))
    return Send(MessageType::kError, AgentErrorPayload("busy", "another client's job is running on this agent"));
  job_cancel_.store(false);
  job_running_.store(true);
  const std::string where =
      request.value().device ? "on device " + request.value().device->path : "in " + request.value().resolved.real_path;
  AgentLog(peer_, "job " + std::string(ToString(request.value().job.rw)) + " " + where);
  job_thread_ = std::thread([this, request = std::move(request).value()] { RunJob(request); });
}

void ControlSession::StartApp(const JobStartMsg& start) {
  bool path_error = false;
  Result<AgentAppRequest> request = PrepareApp(start, ctx_.root, &path_error);
  if (!request.ok()) {
    AgentLog(peer_, "refused: " + request.status().message());
    return SendError(request.status(), path_error ? "path" : "bad_request");
  }
  if (start.check) return SendError(Status::BadInput("JobStart: app: \"check\" is not supported; the workload checks as it starts"));
  bool idle = false;
  if (!ctx_.job_busy.compare_exchange_strong(idle, true))
    return Send(MessageType::kError, AgentErrorPayload("busy", "another client's job is running on this agent"));
  job_cancel_.store(false);
  job_running_.store(true);
  AgentLog(peer_, "app " + request.value().workload + " in " + request.value().cwd.real_path);
  auto shared = std::make_shared<AgentAppRequest>(std::move(request).value());
  job_thread_ = std::thread([this, shared] {
    JobWatch watch(*this);
    AgentJobOutcome outcome = RunAgentApp(*shared, watch.cancel());
    watch.Stop();
    FinishJob(outcome);
  });
}

void ControlSession::RunJob(const AgentJobRequest& request) {
  JobWatch watch(*this);
  auto send_sample = [&watch](const Sample& s) { watch.SendSample(s); };
  if (request.suite == "sweep") {
    FrameSink sink(*this);
    FrameProgress progress(*this, send_sample);
    SweepOutcome outcome = RunAgentSweep(request, watch.cancel(), sink, progress);
    watch.Stop();
    return FinishSweep(outcome);
  }
  AgentJobOutcome outcome = RunAgentJob(request, watch.cancel(), send_sample);
  watch.Stop();
  FinishJob(outcome);
}

void ControlSession::FinishJob(const AgentJobOutcome& outcome) {
  AgentLog(peer_, outcome.status.ok() ? "job done" : "job stopped: " + outcome.status.message());
  // Free the agent and this connection before answering: the client may send its
  // next JobStart the moment it reads JobDone.
  ctx_.job_busy.store(false);
  job_running_.store(false);
  if (outcome.runs.empty()) return SendError(outcome.status);
  nlohmann::json runs = nlohmann::json::array();
  for (const RunResult& r : outcome.runs) runs.push_back(RunForWire(r));
  nlohmann::json done_payload = {{"runs", runs}, {"inventory", nlohmann::json(outcome.runs.front().inventory)}};
  if (!outcome.status.ok()) done_payload["error"] = outcome.status.message();
  Send(MessageType::kJobDone, done_payload);
}

void ControlSession::FinishSweep(const SweepOutcome& outcome) {
  AgentLog(peer_, outcome.status.ok() ? "sweep done" : "sweep stopped: " + outcome.status.message());
  ctx_.job_busy.store(false);
  job_running_.store(false);
  if (outcome.points.empty() && !outcome.status.ok()) return SendError(outcome.status);
  nlohmann::json done_payload = {{"runs", nlohmann::json::array()},
                                 {"sweep", nlohmann::json(SweepToJson(outcome.summary))}};
  if (!outcome.status.ok()) done_payload["error"] = outcome.status.message();
  Send(MessageType::kJobDone, done_payload);
}

}  // namespace nasperf
