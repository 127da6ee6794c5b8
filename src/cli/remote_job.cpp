// JobSites: jobs run here (optionally with NAS telemetry from --agent) or on an agent (--on).
#include "cli/remote_job.h"

#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "suite/sweep_summary.h"
#include "wire/agent_client.h"
#include "model/run_json.h"
#include "base/signals.h"
#include "sysinfo/inventory.h"

namespace nasperf {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr milliseconds kConnectTimeout{5000};
constexpr milliseconds kRequestTimeout{10000};
// The agent sends JobSample every second; this much silence means it or its disk is gone.
constexpr milliseconds kSilenceLimit{3000};
constexpr milliseconds kPollTick{200};

// The agent's telemetry around one local job: TelemetryStart, a reader thread draining
// the 1 Hz samples (so the agent never blocks on a full socket), TelemetryStop → Done.
class AgentTelemetry {
 public:
  explicit AgentTelemetry(AgentConnection& conn) : conn_(conn) {}
  ~AgentTelemetry() {
    stop_reader_ = true;
    if (reader_.joinable()) reader_.join();
  }

  void Start() {
    if (Status s = conn_.Send(MessageType::kTelemetryStart, nlohmann::json::object()); !s.ok()) {
      Finish(nullptr, s.message());
      return;
    }
    reader_ = std::thread([this] { Read(); });
  }

  // The agent's {"samples", "summary", ...}, or null with a warning on stderr.
  nlohmann::ordered_json Stop() {
    if (reader_.joinable()) {
      if (Status s = conn_.Send(MessageType::kTelemetryStop, nlohmann::json::object()); !s.ok())
        Finish(nullptr, s.message());
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_cv_.wait_for(lock, kRequestTimeout, [this] { return done_; })) {
        lock.unlock();
        Finish(nullptr, "no TelemetryDone within 10 s");
      }
      stop_reader_ = true;
      reader_.join();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!warning_.empty())
      std::fprintf(stderr, "warning: agent %s: no telemetry for this run: %s\n", conn_.address().text().c_str(),
                   warning_.c_str());
    return telemetry_;
  }

 private:
  void Read() {
    while (!stop_reader_) {
      Result<std::optional<Frame>> got = conn_.TryReceive(kPollTick);
      if (!got.ok()) return Finish(nullptr, got.status().message());
      if (!got.value()) continue;
      if (got.value()->type == MessageType::kTelemetryDone)
        return Finish(nlohmann::ordered_json(got.value()->payload.value("telemetry", nlohmann::json())), "");
      // TelemetrySample: the series comes whole with TelemetryDone; nothing to keep here.
    }
  }
  void Finish(nlohmann::ordered_json telemetry, const std::string& warning) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (done_) return;
    telemetry_ = std::move(telemetry);
    warning_ = warning;
    done_ = true;
    done_cv_.notify_all();
  }

  AgentConnection& conn_;
  std::thread reader_;
  std::atomic<bool> stop_reader_{false};
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  nlohmann::ordered_json telemetry_;
  std::string warning_;
};

class RemoteSite;

// TARGET under --on: a directory relative to the agent's --root, as BuildJob and the
// run's record see it. It does no I/O itself and only RemoteSite, which made it, runs
// jobs on it (by name, in JobStart); Check asks the agent to check the job there.
class AgentDirTarget final : public Target {
 public:
  AgentDirTarget(RemoteSite& site, std::string dir) : site_(site), dir_(std::move(dir)) {}
  std::string description() const override;
  // quick asks this to choose O_DIRECT; the agent decides per file system instead, and
  // falls back to buffered I/O with fsync where O_DIRECT is refused (its note says so).
  bool SupportsDirect(std::string* why) override;
  Status Check(const JobSpec& job) override;
  // Never called: RemoteSite runs every job on the agent, which opens the directory.
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override {
    return Status::Unavailable("an agent directory is opened by the agent, not here");
  }
  const std::string& dir() const { return dir_; }

 private:
  RemoteSite& site_;
  std::string dir_;
};

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

Sample SampleOf(const Frame& frame) {
  return Sample{frame.payload.value("t_s", 0.0), frame.payload.value("read_mb_per_s", 0.0),
                frame.payload.value("write_mb_per_s", 0.0)};
}

class RemoteSite final : public JobSite {
 public:
  RemoteSite(AgentConnection conn, nlohmann::ordered_json inventory)
      : conn_(std::move(conn)), inventory_(std::move(inventory)) {}

  Status MakeTarget(const std::string& spec, const TargetOptions&) override {
    target_ = std::make_unique<AgentDirTarget>(*this, spec);
    return Status::Ok();
  }
  Status MakeSweepTarget(const std::string& spec, const TargetOptions& options) override {
    return MakeTarget(spec, options);
  }
  // A directory on the agent: its page cache is the agent's (PrepareSweep there says more).
  bool SweepTargetCaches() const override { return true; }
  void ReleaseTarget() override {}  // the agent removes its files as each job ends
  Target& target() override { return *target_; }
  std::string measured_on() const override { return "nas"; }
  nlohmann::ordered_json Inventory() override { return inventory_; }
  std::string where() const { return conn_.address().text(); }
  void RequestDirectFallback() { direct_fallback_ = true; }

  // JobStart with "check": true: the agent checks the job (or plans the sweep) there.
  Status Check(const nlohmann::json& start) {
    if (!broken_.ok()) return broken_;
    nlohmann::json payload = start;
    payload["check"] = true;
    Result<Frame> reply = conn_.Request(MessageType::kJobStart, payload, MessageType::kJobDone, kRequestTimeout);
    if (!reply.ok() && reply.status().kind() != ErrorKind::kBadInput) broken_ = reply.status();
    return reply.status();
  }
  Status CheckJob(const JobSpec& job) { return Check(StartPayload(job, "")); }

  RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) override {
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

  Status PrepareSweep(const SweepRequest& request) override {
    sweep_ = request;
    return Check(SweepPayload(request));
  }

  // The agent runs the sweep (suite/sweep_run.h) and sends each point as it begins
  // (JobRunStart) and ends (JobRun); they are begun and finished on `sink` here, as
  // local points are. JobDone brings the summary.
  SweepOutcome RunSweep(RunSink& sink, SuiteProgress& progress) override {
    SweepOutcome out;
    auto fail = [&](Status s) {
      progress.Clear();
      out.status = Fail(std::move(s));
      out.summary.partial = true;
      out.summary.target = target_->description();
      return out;
    };
    if (!broken_.ok()) return fail(broken_);
    if (Status s = conn_.Send(MessageType::kJobStart, SweepPayload(*sweep_)); !s.ok())
      return fail(Status::Io("agent " + where() + ": " + s.message()));
    JobFrames frames(*this);
    std::optional<RunResult> begun;
    RunResult labels;  // what every point is labelled with here
    labels.name = sweep_->name.empty() ? "sweep" : sweep_->name;
    labels.tags = sweep_->tags;
    labels.target = target_->description();
    Status sink_status;
    while (true) {
      Result<std::optional<Frame>> got = frames.Next();
      if (!got.ok()) return fail(got.status());
      if (!got.value()) continue;
      const Frame& frame = *got.value();
      switch (frame.type) {
        case MessageType::kJobSample: progress.Show(SampleOf(frame)); break;
        case MessageType::kJobProgress:
          progress.SetLabel(frame.payload.value("label", std::string()));
          progress.ShowLabel(frame.payload.value("detail", std::string()));
          break;
        case MessageType::kJobRunStart: {
          Result<RunResult> run = Received(frame.payload.value("run", nlohmann::json()), frame.payload, "JobRunStart", labels);
          if (!run.ok()) return fail(run.status());
          begun = std::move(run).value();
          if (Status s = sink.Begin(*begun); !s.ok() && sink_status.ok()) {
            sink_status = s;  // stop the sweep as a local one stops, before this point
            frames.Cancel();
          }
          break;
        }
        case MessageType::kJobRun: {
          progress.Clear();
          Result<RunResult> run = Received(frame.payload.value("run", nlohmann::json()), frame.payload, "JobRun", labels);
          if (!run.ok()) return fail(run.status());
          if (!begun) return fail(Status::Io("agent " + where() + ": JobRun without JobRunStart"));
          RunResult point = std::move(run).value();
          if (Status s = sink.Finish(point, *begun); !s.ok() && out.status.ok()) out.status = s;
          begun.reset();
          out.points.push_back(std::move(point));
          break;
        }
        case MessageType::kJobDone: {
          progress.Clear();
          Result<SweepSummary> summary = SweepFromJson(nlohmann::ordered_json(frame.payload.value("sweep", nlohmann::json())));
          if (!summary.ok()) return fail(Status::Io("agent " + where() + ": JobDone: " + summary.status().message()));
          out.summary = std::move(summary).value();
          out.summary.target = target_->description();
          out.summary.id = 0;
          if (frame.payload.contains("error")) {
            std::string why = frame.payload.value("error", std::string("stopped early"));
            Status stopped = !sink_status.ok()          ? sink_status
                             : frames.cancelled()      ? Status::Interrupted()
                                                       : Status::Io("agent " + where() + ": " + why);
            out.status = stopped;
          }
          out.summary.partial = !out.status.ok();
          out.summary.curves = AnalyseCurves(out.points, out.summary);
          return out;
        }
        default: break;  // Ping: the agent's heartbeat
      }
    }
  }

 private:
  // The frames of one job: Ctrl-C sends JobCancel once (the agent stops, removes its
  // files and answers with a partial JobDone); 3 s of silence means the agent is gone.
  class JobFrames {
   public:
    explicit JobFrames(RemoteSite& site) : site_(site), last_heard_(Clock::now()) {}
    Result<std::optional<Frame>> Next() {
      if (!cancel_sent_ && InterruptRequested()) Cancel();
      Result<std::optional<Frame>> got = site_.conn_.TryReceive(kPollTick);
      if (!got.ok()) return got.status();
      if (!got.value()) {
        if (Clock::now() - last_heard_ > kSilenceLimit)
          return Status::Io("agent " + site_.where() +
                            " sent nothing for 3 s (agent or its disk gone): run stored as partial");
        return got;
      }
      last_heard_ = Clock::now();
      return got;
    }
    void Cancel() {
      if (cancel_sent_) return;
      cancel_sent_ = true;
      site_.conn_.Send(MessageType::kJobCancel, nlohmann::json::object());
    }
    bool cancelled() const { return cancel_sent_ && InterruptRequested(); }

   private:
    RemoteSite& site_;
    Clock::time_point last_heard_;
    bool cancel_sent_ = false;
  };

  // Once the agent is gone, every later job fails at once with its status.
  Status Fail(Status s) {
    if (s.kind() != ErrorKind::kBadInput && s.kind() != ErrorKind::kInterrupted) broken_ = s;
    return s;
  }

  // A run the agent sent, labelled as the client labels its runs.
  Result<RunResult> Received(const nlohmann::json& j, const nlohmann::json& payload, const char* frame,
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

  nlohmann::json StartPayload(const JobSpec& job, const std::string& name) const {
    return {{"job", nlohmann::json(JobToJson(job, job.engine))},
            {"dir", target_->dir()},
            {"name", name},
            {"suite", "run"},
            {"repeat", job.repeat},
            {"direct_fallback", direct_fallback_ && job.direct}};
  }

  nlohmann::json SweepPayload(const SweepRequest& r) const {
    nlohmann::json tests = nlohmann::json::array();
    for (SweepTest t : r.tests) tests.push_back(ToString(t));
    nlohmann::json sweep = {{"min_bytes", r.min_bytes}, {"records", r.records}, {"tests", tests},
                            {"drop_caches", r.drop_caches}};
    if (r.max_bytes) sweep["max_bytes"] = *r.max_bytes;
    if (r.nas_ram_bytes) sweep["nas_ram_bytes"] = *r.nas_ram_bytes;
    return {{"job", nlohmann::json(JobToJson(r.base, r.base.engine))},
            {"dir", target_->dir()},
            {"name", r.name},
            {"suite", "sweep"},
            {"repeat", r.base.repeat},
            {"sweep", sweep}};
  }

  AgentConnection conn_;
  nlohmann::ordered_json inventory_;
  std::unique_ptr<AgentDirTarget> target_;
  std::optional<SweepRequest> sweep_;
  bool direct_fallback_ = false;
  Status broken_;
};

std::string AgentDirTarget::description() const { return "agent " + site_.where() + ":" + dir_; }
bool AgentDirTarget::SupportsDirect(std::string* why) {
  site_.RequestDirectFallback();
  return true;
}
Status AgentDirTarget::Check(const JobSpec& job) { return site_.CheckJob(job); }

}  // namespace

void AddAgentTargetOptions(CLI::App& app, AgentTargetOptions& options) {
  app.add_option("--on", options.on, "HOST[:PORT]: run on that agent's own disks; TARGET is a directory under its --root");
  app.add_option("--agent", options.agent, "HOST[:PORT]: an agent on the NAS samples its telemetry while the job runs");
  app.add_option("--token-file", options.token_file, "the agent's token (else env NASPERF_TOKEN)");
}

Result<std::unique_ptr<JobSite>> MakeJobSite(const AgentTargetOptions& options) {
  if (!options.on.empty() && !options.agent.empty())
    return Status::BadInput("--on and --agent exclude each other (--on already samples the NAS's telemetry)");
  const std::string& named = options.on.empty() ? options.agent : options.on;
  const char* option = options.on.empty() ? "--agent" : "--on";
  if (named.empty()) {
    if (!options.token_file.empty()) return Status::BadInput("--token-file needs --on or --agent");
    return MakeLocalJobSite();
  }
  Result<AgentAddress> address = ParseAgentAddress(named);
  if (!address.ok()) return Status::BadInput(std::string(option) + ": " + address.status().message());
  Result<std::string> token = LoadClientToken(options.token_file);
  if (!token.ok()) return Status::BadInput("--token-file: " + token.status().message());
  Result<AgentConnection> conn = AgentConnection::Connect(address.value(), token.value(), "control", kConnectTimeout);
  if (!conn.ok()) return conn.status();
  if (options.on.empty()) {
    // The agent's telemetry around each job run here.
    auto agent = std::make_shared<AgentConnection>(std::move(conn).value());
    return MakeLocalJobSite([agent](const std::function<RunOutcome()>& run) {
      AgentTelemetry telemetry(*agent);
      telemetry.Start();
      RunOutcome outcome = run();
      outcome.result.telemetry = telemetry.Stop();
      return outcome;
    });
  }
  Result<Frame> inventory =
      conn.value().Request(MessageType::kInventoryGet, nlohmann::json::object(), MessageType::kInventory, kRequestTimeout);
  if (!inventory.ok()) return inventory.status();
  nlohmann::ordered_json inv(inventory.value().payload.value("inventory", nlohmann::json::object()));
  return std::unique_ptr<JobSite>(new RemoteSite(std::move(conn).value(), std::move(inv)));
}

}  // namespace nasperf
