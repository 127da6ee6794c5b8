// JobSites: jobs run here (optionally with NAS telemetry from --agent) or on an agent (--on).
#include "cli/remote_job.h"

#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

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

class LocalSite final : public JobSite {
 public:
  explicit LocalSite(std::optional<AgentConnection> telemetry) : telemetry_(std::move(telemetry)) {}
  Result<std::unique_ptr<Target>> MakeTarget(const std::string& spec, const TargetOptions& options) override {
    return nasperf::MakeTarget(spec, options);
  }
  nlohmann::ordered_json Inventory(const Target& target) override { return GatherInventory(target.description()); }
  RunOutcome Run(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks) override {
    if (!telemetry_) return RunRepeated(job, target, labels, hooks);
    AgentTelemetry telemetry(*telemetry_);
    telemetry.Start();
    RunOutcome outcome = RunRepeated(job, target, labels, hooks);
    outcome.result.telemetry = telemetry.Stop();
    return outcome;
  }

 private:
  std::optional<AgentConnection> telemetry_;
};

class RemoteSite;

// TARGET under --on: a directory relative to the agent's --root. It does no I/O itself;
// Check asks the agent to check the job there (JobStart with "check": true).
class AgentDirTarget final : public Target {
 public:
  AgentDirTarget(RemoteSite& site, std::string dir) : site_(site), dir_(std::move(dir)) {}
  std::string description() const override;
  // quick asks this to choose O_DIRECT; the agent decides per file system instead, and
  // falls back to buffered I/O with fsync where O_DIRECT is refused (its note says so).
  bool SupportsDirect(std::string* why) override;
  Status Check(const JobSpec& job) override;
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

class RemoteSite final : public JobSite {
 public:
  RemoteSite(AgentConnection conn, nlohmann::ordered_json inventory)
      : conn_(std::move(conn)), inventory_(std::move(inventory)) {}

  Result<std::unique_ptr<Target>> MakeTarget(const std::string& spec, const TargetOptions& options) override {
    return std::unique_ptr<Target>(new AgentDirTarget(*this, spec));
  }
  nlohmann::ordered_json Inventory(const Target&) override { return inventory_; }
  std::string where() const { return conn_.address().text(); }
  void RequestDirectFallback() { direct_fallback_ = true; }

  Status Check(const AgentDirTarget& target, const JobSpec& job) {
    if (!broken_.ok()) return broken_;
    Result<Frame> reply =
        conn_.Request(MessageType::kJobStart, StartPayload(job, target.dir(), "", true), MessageType::kJobDone, kRequestTimeout);
    if (!reply.ok() && reply.status().kind() != ErrorKind::kBadInput) broken_ = reply.status();
    return reply.status();
  }

  RunOutcome Run(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks) override {
    const auto& dir_target = static_cast<const AgentDirTarget&>(target);
    RunOutcome out = StartOutcome(job, target, labels);
    RunResult& r = out.result;
    r.inventory = inventory_;
    r.measured_on = "nas";
    auto fail = [&](Status s) {
      r.partial = true;
      r.error = s.message();
      if (!r.samples.empty()) FillFromSamples(r);
      if (s.kind() != ErrorKind::kBadInput && s.kind() != ErrorKind::kInterrupted) broken_ = s;
      out.status = std::move(s);
      return out;
    };
    if (!broken_.ok()) return fail(broken_);
    if (Status s = conn_.Send(MessageType::kJobStart, StartPayload(job, dir_target.dir(), labels.name, false)); !s.ok())
      return fail(Status::Io("agent " + where() + ": " + s.message()));
    Clock::time_point last_heard = Clock::now();
    bool cancel_sent = false;
    while (true) {
      if (!cancel_sent && InterruptRequested()) {
        cancel_sent = true;  // the agent stops, removes its files and sends a partial JobDone
        conn_.Send(MessageType::kJobCancel, nlohmann::json::object());
      }
      Result<std::optional<Frame>> got = conn_.TryReceive(kPollTick);
      if (!got.ok()) return fail(got.status());
      if (!got.value()) {
        if (Clock::now() - last_heard > kSilenceLimit)
          return fail(Status::Io("agent " + where() + " sent nothing for 3 s (agent or its disk gone): run stored as partial"));
        continue;
      }
      last_heard = Clock::now();
      const Frame& frame = *got.value();
      if (frame.type == MessageType::kJobSample) {
        Sample s{frame.payload.value("t_s", 0.0), frame.payload.value("read_mb_per_s", 0.0),
                 frame.payload.value("write_mb_per_s", 0.0)};
        r.samples.push_back(s);
        if (hooks.on_sample) hooks.on_sample(s);
        continue;
      }
      if (frame.type != MessageType::kJobDone) continue;  // Ping: the agent's heartbeat
      const nlohmann::json runs = frame.payload.value("runs", nlohmann::json::array());
      if (!runs.is_array() || runs.empty()) return fail(Status::Io("agent " + where() + ": JobDone without a run"));
      Result<RunResult> run = RunFromJson(runs.front());
      if (!run.ok()) return fail(Status::Io("agent " + where() + ": JobDone: " + run.status().message()));
      RunResult done = std::move(run).value();
      done.name = r.name;
      done.tags = r.tags;
      done.target = r.target;
      done.measured_on = "nas";
      done.inventory = frame.payload.contains("inventory") ? nlohmann::ordered_json(frame.payload["inventory"]) : inventory_;
      done.id = 0;
      out.result = std::move(done);
      if (frame.payload.contains("error")) {
        std::string why = frame.payload.value("error", std::string("stopped early"));
        out.status = cancel_sent ? Status::Interrupted() : Status::Io("agent " + where() + ": " + why);
        out.result.partial = true;
        if (out.result.error.empty()) out.result.error = why;
      }
      return out;
    }
  }

 private:
  nlohmann::json StartPayload(const JobSpec& job, const std::string& dir, const std::string& name, bool check) const {
    nlohmann::json p = {{"job", nlohmann::json(JobToJson(job, job.engine))},
                        {"dir", dir},
                        {"name", name},
                        {"suite", "run"},
                        {"repeat", job.repeat},
                        {"direct_fallback", direct_fallback_ && job.direct}};
    if (check) p["check"] = true;
    return p;
  }

  AgentConnection conn_;
  nlohmann::ordered_json inventory_;
  bool direct_fallback_ = false;
  Status broken_;  // once the agent is gone, every later job fails at once with this
};

std::string AgentDirTarget::description() const { return "agent " + site_.where() + ":" + dir_; }
bool AgentDirTarget::SupportsDirect(std::string* why) {
  site_.RequestDirectFallback();
  return true;
}
Status AgentDirTarget::Check(const JobSpec& job) { return site_.Check(*this, job); }

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
    return std::unique_ptr<JobSite>(new LocalSite(std::nullopt));
  }
  Result<AgentAddress> address = ParseAgentAddress(named);
  if (!address.ok()) return Status::BadInput(std::string(option) + ": " + address.status().message());
  Result<std::string> token = LoadClientToken(options.token_file);
  if (!token.ok()) return Status::BadInput("--token-file: " + token.status().message());
  Result<AgentConnection> conn = AgentConnection::Connect(address.value(), token.value(), "control", kConnectTimeout);
  if (!conn.ok()) return conn.status();
  if (options.on.empty()) return std::unique_ptr<JobSite>(new LocalSite(std::move(conn).value()));
  Result<Frame> inventory =
      conn.value().Request(MessageType::kInventoryGet, nlohmann::json::object(), MessageType::kInventory, kRequestTimeout);
  if (!inventory.ok()) return inventory.status();
  nlohmann::ordered_json inv(inventory.value().payload.value("inventory", nlohmann::json::object()));
  return std::unique_ptr<JobSite>(new RemoteSite(std::move(conn).value(), std::move(inv)));
}

}  // namespace nasperf
