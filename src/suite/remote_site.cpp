// RemoteSite's jobs: JobStart, the JobSamples, JobDone (or what the samples add up to).
#include "suite/remote_site.h"

#include <cmath>

#include "base/signals.h"
#include "model/run_json.h"

namespace nasperf {
namespace {

// A run cut short before JobDone: the figures its JobSamples add up to (no latency).
void FillFromSamples(RunResult& r) {
  double read_bytes = 0, write_bytes = 0, t = 0;
  for (const Sample& s : r.samples) {
    double dt = s.t_s - t;
    read_bytes += s.read_mb_per_s * 1e6 * dt;
    write_bytes += s.write_mb_per_s * 1e6 * dt;
    t = s.t_s;
  }
  auto direction = [&](double bytes) {
    uint64_t ios = static_cast<uint64_t>(std::llround(bytes / static_cast<double>(r.job.bs)));
    return SummariseDirection(ios * r.job.bs, ios, t, 0, nullptr);
  };
  if (DoesReads(r.job.rw)) r.read = direction(read_bytes);
  if (DoesWrites(r.job.rw)) r.write = direction(write_bytes);
  r.notes.push_back("figures from the agent's 1 Hz samples until it went silent; no latency");
}

}  // namespace

std::string AgentDirTarget::description() const { return "agent " + site_.where() + ":" + dir_; }
std::optional<uint64_t> AgentDirTarget::natural_size(uint32_t threads) const {
  for (const AgentDevice& d : site_.devices())
    if (d.path == dir_) return d.size_bytes / (threads ? threads : 1);
  return std::nullopt;
}
bool AgentDirTarget::SupportsDirect(std::string* why) {
  site_.RequestDirectFallback();
  return true;
}
Status AgentDirTarget::Check(const JobSpec& job) { return site_.CheckJob(job); }

Status RemoteSite::Check(const nlohmann::json& start) {
  if (!broken_.ok()) return broken_;
  nlohmann::json payload = start;
  payload["check"] = true;
  Result<Frame> reply = conn_.Request(MessageType::kJobStart, payload, MessageType::kJobDone, kAgentRequestTimeout);
  if (!reply.ok() && reply.status().kind() != ErrorKind::kBadInput) broken_ = reply.status();
  return reply.status();
}

RunOutcome RemoteSite::Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) {
  RunOutcome out = StartOutcome(job, *target_, labels);
  RunResult& r = out.result;
  r.inventory = inventory_;
  r.measured_on = "nas";
  auto fail = [&](Status s) {
    r.partial = true;
    r.error = s.message();
    if (!r.samples.empty()) FillFromSamples(r);
    out.status = Fail(std::move(s));
    return out;
  };
  if (!broken_.ok()) return fail(broken_);
  if (Status s = conn_.Send(MessageType::kJobStart, StartPayload(job, labels.name)); !s.ok())
    return fail(Status::Io("agent " + where() + ": " + s.message()));
  JobFrames frames(*this);
  while (true) {
    Result<std::optional<Frame>> got = frames.Next();
    if (!got.ok()) return fail(got.status());
    if (!got.value()) continue;
    const Frame& frame = *got.value();
    if (frame.type == MessageType::kJobSample) {
      r.samples.push_back(SampleOf(frame));
      if (hooks.on_sample) hooks.on_sample(r.samples.back());
      continue;
    }
    if (frame.type != MessageType::kJobDone) continue;  // Ping: the agent's heartbeat
    const nlohmann::json runs = frame.payload.value("runs", nlohmann::json::array());
    if (!runs.is_array() || runs.empty()) return fail(Status::Io("agent " + where() + ": JobDone without a run"));
    Result<RunResult> run = Received(runs.front(), frame.payload, "JobDone", r);
    if (!run.ok()) return fail(run.status());
    out.result = std::move(run).value();
    if (frame.payload.contains("error")) {
      std::string why = frame.payload.value("error", std::string("stopped early"));
      out.status = frames.cancelled() ? Status::Interrupted() : Status::Io("agent " + where() + ": " + why);
      out.result.partial = true;
      if (out.result.error.empty()) out.result.error = why;
    }
    return out;
  }
}

Result<std::optional<Frame>> RemoteSite::JobFrames::Next() {
  if (!cancel_sent_ && InterruptRequested()) Cancel();
  Result<std::optional<Frame>> got = site_.conn_.TryReceive(kAgentPollTick);
  if (!got.ok()) return got.status();
  if (!got.value()) {
    if (Clock::now() - last_heard_ > kAgentSilenceLimit)
      return Status::Io("agent " + site_.where() +
                        " sent nothing for 3 s (agent or its disk gone): run stored as partial");
    return got;
  }
  last_heard_ = Clock::now();
  return got;
}

void RemoteSite::JobFrames::Cancel() {
  if (cancel_sent_) return;
  cancel_sent_ = true;
  site_.conn_.Send(MessageType::kJobCancel, nlohmann::json::object());
}

bool RemoteSite::JobFrames::cancelled() const { return cancel_sent_ && InterruptRequested(); }

Result<RunResult> RemoteSite::Received(const nlohmann::json& j, const nlohmann::json& payload, const char* frame,
                                       const RunResult& labels) {
  Result<RunResult> run = RunFromJson(j);
  if (!run.ok()) return Status::Io("agent " + where() + ": " + frame + ": " + run.status().message());
  RunResult done = std::move(run).value();
  done.name = labels.name;
  done.tags = labels.tags;
  done.target = labels.target;
  done.measured_on = "nas";
  done.inventory = payload.contains("inventory") ? nlohmann::ordered_json(payload["inventory"]) : inventory_;
  done.id = 0;
  return done;
}

Sample RemoteSite::SampleOf(const Frame& frame) {
  return Sample{frame.payload.value("t_s", 0.0), frame.payload.value("read_mb_per_s", 0.0),
                frame.payload.value("write_mb_per_s", 0.0)};
}

nlohmann::json RemoteSite::StartPayload(const JobSpec& job, const std::string& name) const {
  return {{"job", nlohmann::json(JobToJson(job, job.engine))},
          {"dir", target_->dir()},
          {"name", name},
          {"suite", "run"},
          {"repeat", job.repeat},
          {"direct_fallback", direct_fallback_ && job.direct}};
}

}  // namespace nasperf
