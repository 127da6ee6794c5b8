// A connection of `nasperf agent`: the handshake, the control request loop, data streams.
#include "agent/agent_session.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "agent/agent_job.h"
#include "model/inventory_json.h"
#include "wire/auth.h"
#include "wire/messages.h"
#include "net/net_service.h"
#include "nasperf/version.h"
#include "model/run_json.h"
#include "suite/sweep_summary.h"
#include "sysinfo/inventory.h"
#include "report/telemetry_text.h"
#include "sysinfo/telemetry/telemetry.h"

namespace nasperf {
namespace {

using std::chrono::milliseconds;
using Sampler = sysinfo::telemetry::TelemetrySampler;

constexpr milliseconds kSendTimeout{10000};
constexpr milliseconds kDataAttachTimeout{10000};
constexpr milliseconds kLoopTick{250};

SteadyTime Now() { return std::chrono::steady_clock::now(); }

void Log(const std::string& peer, const std::string& what) {
  std::fprintf(stderr, "nasperf agent: %s: %s\n", peer.c_str(), what.c_str());
}

const nlohmann::json kEmptyObject = nlohmann::json::object();

nlohmann::json ErrorPayload(const std::string& code, const std::string& message) {
  return {{"code", code}, {"message", message}};
}

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

// Types a client may send on an authenticated control connection.
bool IsControlRequest(MessageType t) {
  switch (t) {
    case MessageType::kInventoryGet: case MessageType::kNetStart: case MessageType::kNetGo: case MessageType::kNetFinish:
    case MessageType::kJobStart: case MessageType::kJobCancel: case MessageType::kTelemetryStart:
    case MessageType::kTelemetryStop: case MessageType::kPing: case MessageType::kPong:
      return true;
    default:
      return false;
  }
}

// The handshake; returns the role ("control" | "data") or "" after answering the failure.
std::string Authenticate(AgentContext& ctx, int fd, FrameDecoder& decoder, SteadyTime deadline, const std::string& peer) {
  auto refuse = [&](const std::string& code, const std::string& message) {
    SendFrame(fd, MessageType::kError, ErrorPayload(code, message), Now() + milliseconds(1000));
    Log(peer, "refused: " + message);
    return std::string();
  };
  auto read = [&](MessageType expected) -> std::optional<AgentMessage> {
    ReadOutcome got = ReadFrame(fd, decoder, deadline, &ctx.shutting_down);
    if (got.end == ReadEnd::kTimeout) {
      refuse("auth", "authentication did not finish within the time allowed");
      return std::nullopt;
    }
    if (got.end == ReadEnd::kProtocolError) {
      refuse("protocol", got.status.message());
      return std::nullopt;
    }
    if (got.end != ReadEnd::kFrame) return std::nullopt;
    if (got.frame.type != expected) {
      refuse("auth", "authenticate first: expected " + MessageTypeName(expected) + ", got " +
                         MessageTypeName(got.frame.type));
      return std::nullopt;
    }
    Result<AgentMessage> message = DecodeMessage(got.frame);
    if (!message.ok()) {
      refuse("protocol", message.status().message());
      return std::nullopt;
    }
    return std::move(message).value();
  };

  std::optional<AgentMessage> hello = read(MessageType::kHello);
  if (!hello) return "";
  const HelloMsg& h = std::get<HelloMsg>(hello->body);
  const std::string role = h.role;
  if (role != "control" && role != "data") return refuse("protocol", "Hello.role must be \"control\" or \"data\"");
  Result<std::string> client_nonce = HexToBytes(h.client_nonce_hex, kNonceBytes, "Hello.client_nonce");
  if (!client_nonce.ok()) return refuse("protocol", client_nonce.status().message());
  Result<std::string> server_nonce_hex = RandomHex(kNonceBytes);
  if (!server_nonce_hex.ok()) return refuse("failed", server_nonce_hex.status().message());
  std::string server_nonce = HexToBytes(server_nonce_hex.value(), kNonceBytes, "nonce").value();
  if (!SendFrame(fd, MessageType::kChallenge, {{"server_nonce", server_nonce_hex.value()}, {"agent", "nasperf " NASPERF_VERSION}},
                 deadline).ok())
    return "";
  std::optional<AgentMessage> auth = read(MessageType::kAuth);
  if (!auth) return "";
  const std::string& mac = std::get<AuthMsg>(auth->body).mac_hex;
  if (!MacMatches(ClientMac(ctx.options.token, role, server_nonce, client_nonce.value()), mac))
    return refuse("auth", "wrong token (the MAC does not match)");
  if (!SendFrame(fd, MessageType::kAuthOk, {{"mac", AgentMac(ctx.options.token, client_nonce.value(), server_nonce)}},
                 deadline).ok())
    return "";
  return role;
}

// The request loop of one authenticated control connection, and what it owns: at most
// one job (on its own thread), a telemetry sampler and the net sessions it started.
class ControlSession {
 public:
  ControlSession(AgentContext& ctx, int fd, FrameDecoder& decoder, uint64_t id, std::string peer)
      : ctx_(ctx), fd_(fd), decoder_(decoder), id_(id), peer_(std::move(peer)) {}

  ~ControlSession() {
    // However the connection ended, nothing it started outlives it.
    job_cancel_.store(true);
    if (job_thread_.joinable()) job_thread_.join();
    if (telemetry_) telemetry_->Stop();
    if (net_telemetry_) net_telemetry_->Stop();
    if (ctx_.net) ctx_.net->ConnectionClosed(id_);
  }

  void Run() {
    SteadyTime idle_deadline = Now() + ctx_.options.idle_timeout;
    while (!broken_.load()) {
      if (job_thread_.joinable() && !job_running_.load()) {
        job_thread_.join();
        idle_deadline = Now() + ctx_.options.idle_timeout;
      }
      ReadOutcome got = ReadFrame(fd_, decoder_, std::min(idle_deadline, Now() + kLoopTick), &ctx_.shutting_down);
      if (got.end == ReadEnd::kTimeout) {
        // A job or telemetry in progress is not idleness: the client is waiting for them.
        if (job_running_.load() || telemetry_) idle_deadline = Now() + ctx_.options.idle_timeout;
        if (Now() >= idle_deadline) {
          Send(MessageType::kError, ErrorPayload("protocol", "idle for too long: closing"));
          Log(peer_, "closed: idle");
          return;
        }
        continue;
      }
      if (got.end == ReadEnd::kProtocolError) {
        Send(MessageType::kError, ErrorPayload("protocol", got.status.message()));
        Log(peer_, "dropped: " + got.status.message());
        return;
      }
      if (got.end != ReadEnd::kFrame) return;  // closed, reset or shutting down
      if (!IsControlRequest(got.frame.type)) {
        std::string message = "protocol error: " + MessageTypeName(got.frame.type) + " is not allowed on a control connection";
        Send(MessageType::kError, ErrorPayload("protocol", message));
        Log(peer_, "dropped: " + message);
        return;
      }
      // Every field's type and size is checked here, before any handler reads it; a frame
      // that fails is answered and the connection closed (other sessions go on).
      Result<AgentMessage> message = DecodeMessage(got.frame);
      if (!message.ok()) {
        Send(MessageType::kError, ErrorPayload("bad_request", message.status().message()));
        Log(peer_, "dropped: " + message.status().message());
        return;
      }
      Handle(message.value());
      idle_deadline = Now() + ctx_.options.idle_timeout;
    }
  }

 private:
  // Sends from this thread, the job thread and the telemetry thread are serialised here.
  void Send(MessageType type, const nlohmann::json& payload) {
    std::lock_guard<std::mutex> lock(send_mutex_);
    if (broken_.load()) return;
    if (!SendFrame(fd_, type, payload, Now() + kSendTimeout).ok()) broken_.store(true);
  }
  void SendError(const Status& s, const std::string& code_for_bad_input = "bad_request") {
    Send(MessageType::kError, ErrorPayload(s.kind() == ErrorKind::kBadInput ? code_for_bad_input : "failed", s.message()));
  }

  void Handle(const AgentMessage& frame) {
    const nlohmann::json& payload = std::holds_alternative<ObjectMsg>(frame.body)
                                        ? std::get<ObjectMsg>(frame.body).payload
                                        : kEmptyObject;
    switch (frame.type) {
      case MessageType::kPing: Send(MessageType::kPong, nlohmann::json::object()); return;
      case MessageType::kPong: return;
      case MessageType::kInventoryGet:
        Send(MessageType::kInventory, {{"inventory", InventoryToJson(GatherInventory(ctx_.root.real_path()))}});
        return;
      case MessageType::kJobStart: return StartJob(std::get<JobStartMsg>(frame.body));
      case MessageType::kJobCancel:
        if (!job_running_.load()) return SendError(Status::BadInput("JobCancel: no job is running"));
        job_cancel_.store(true);
        return;  // the job answers with JobDone (partial)
      case MessageType::kTelemetryStart:
        if (telemetry_) return SendError(Status::BadInput("TelemetryStart: telemetry is already running"));
        telemetry_ = std::make_unique<Sampler>(SummariseTelemetry);
        telemetry_->Start([this](const nlohmann::ordered_json& sample) {
          Send(MessageType::kTelemetrySample, nlohmann::json(sample));
        });
        return;
      case MessageType::kTelemetryStop: {
        if (!telemetry_) return SendError(Status::BadInput("TelemetryStop: telemetry is not running"));
        nlohmann::ordered_json telemetry = telemetry_->Stop();
        telemetry_.reset();
        Send(MessageType::kTelemetryDone, {{"telemetry", nlohmann::json(telemetry)}});
        return;
      }
      case MessageType::kNetStart: {
        if (!ctx_.net) return SendError(Status::Unavailable("NetStart: this agent has no network test"));
        Result<nlohmann::json> ready = ctx_.net->Start(payload, id_);
        if (!ready.ok()) return SendError(ready.status());
        if (!net_telemetry_) {
          net_telemetry_ = std::make_unique<Sampler>(SummariseTelemetry);
          net_telemetry_->Start();
        }
        Send(MessageType::kNetReady, ready.value());
        return;
      }
      case MessageType::kNetGo: {
        if (!ctx_.net) return SendError(Status::Unavailable("NetGo: this agent has no network test"));
        Result<nlohmann::json> going = ctx_.net->Go(payload, id_);
        if (!going.ok()) return SendError(going.status());
        Send(MessageType::kNetGoing, going.value());
        return;
      }
      case MessageType::kNetFinish: {
        if (!ctx_.net) return SendError(Status::Unavailable("NetFinish: this agent has no network test"));
        Result<nlohmann::json> report = ctx_.net->Finish(payload, id_);
        if (!report.ok()) return SendError(report.status());
        nlohmann::json payload = report.value();
        if (net_telemetry_) {
          payload["telemetry"] = nlohmann::json(net_telemetry_->Stop());
          net_telemetry_.reset();
        }
        Send(MessageType::kNetReport, payload);
        return;
      }
      default: return;
    }
  }

  void StartJob(const JobStartMsg& start) {
    if (job_running_.load())
      return SendError(Status::BadInput("JobStart: a job is already running on this connection"));
    if (job_thread_.joinable()) job_thread_.join();  // the last job's thread, finishing its JobDone
    bool path_error = false;
    Result<AgentJobRequest> request = PrepareJob(start, ctx_.root, &path_error);
    if (!request.ok()) return SendError(request.status(), path_error ? "path" : "bad_request");
    const bool sweep = request.value().suite == "sweep";
    if (request.value().check_only) {
      if (Status s = sweep ? CheckAgentSweep(request.value()) : CheckAgentJob(request.value()); !s.ok())
        return SendError(s);
      return Send(MessageType::kJobDone, {{"runs", nlohmann::json::array()}, {"inventory", nlohmann::json::object()}});
    }
    bool idle = false;
    if (!ctx_.job_busy.compare_exchange_strong(idle, true))
      return Send(MessageType::kError, ErrorPayload("busy", "another client's job is running on this agent"));
    job_cancel_.store(false);
    job_running_.store(true);
    Log(peer_, "job " + std::string(ToString(request.value().job.rw)) + " in " + request.value().resolved.real_path);
    job_thread_ = std::thread([this, request = std::move(request).value()]() mutable {
      // Cancelled by JobCancel, by this connection closing, or by the agent shutting down.
      std::atomic<bool> cancel{false};
      std::thread watcher;  // folds the two outer flags into the one the engines read
      std::atomic<bool> done{false};
      // Samples only come while the clock runs; laying out a large file for a read job
      // can take longer than the client's 3 s of patience, so silence is filled with Ping.
      std::atomic<int64_t> last_sent_ms{0};
      auto now_ms = [] {
        return std::chrono::duration_cast<milliseconds>(Now().time_since_epoch()).count();
      };
      last_sent_ms.store(now_ms());
      watcher = std::thread([&] {
        while (!done.load()) {
          if (job_cancel_.load() || ctx_.shutting_down.load()) cancel.store(true);
          if (now_ms() - last_sent_ms.load() > 1000) {
            Send(MessageType::kPing, nlohmann::json::object());
            last_sent_ms.store(now_ms());
          }
          std::this_thread::sleep_for(milliseconds(50));
        }
      });
      auto send_sample = [&, this](const Sample& s) {
        Send(MessageType::kJobSample, {{"t_s", s.t_s}, {"read_mb_per_s", s.read_mb_per_s}, {"write_mb_per_s", s.write_mb_per_s}});
        last_sent_ms.store(now_ms());
      };
      if (request.suite == "sweep") {
        FrameSink sink(*this);
        FrameProgress progress(*this, send_sample);
        SweepOutcome outcome = RunAgentSweep(request, cancel, sink, progress);
        done.store(true);
        watcher.join();
        return FinishSweep(outcome);
      }
      AgentJobOutcome outcome = RunAgentJob(request, cancel, send_sample);
      done.store(true);
      watcher.join();
      Log(peer_, outcome.status.ok() ? "job done" : "job stopped: " + outcome.status.message());
      // Free the agent and this connection before answering: the client may send its
      // next JobStart the moment it reads JobDone.
      ctx_.job_busy.store(false);
      job_running_.store(false);
      if (outcome.runs.empty()) {
        SendError(outcome.status);
      } else {
        nlohmann::json runs = nlohmann::json::array();
        for (const RunResult& r : outcome.runs) runs.push_back(RunForWire(r));
        nlohmann::json done_payload = {{"runs", runs}, {"inventory", nlohmann::json(outcome.runs.front().inventory)}};
        if (!outcome.status.ok()) done_payload["error"] = outcome.status.message();
        Send(MessageType::kJobDone, done_payload);
      }
    });
  }

  // A sweep's points to the client as they begin and end (JobRunStart, JobRun): the
  // client stores them as it stores its own.
  class FrameSink final : public RunSink {
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
  class FrameProgress final : public SuiteProgress {
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

  // The sweep's end: JobDone with its summary, or an Error when it never began.
  void FinishSweep(const SweepOutcome& outcome) {
    Log(peer_, outcome.status.ok() ? "sweep done" : "sweep stopped: " + outcome.status.message());
    ctx_.job_busy.store(false);
    job_running_.store(false);
    if (outcome.points.empty() && !outcome.status.ok()) return SendError(outcome.status);
    nlohmann::json done_payload = {{"runs", nlohmann::json::array()}, {"sweep", nlohmann::json(SweepToJson(outcome.summary))}};
    if (!outcome.status.ok()) done_payload["error"] = outcome.status.message();
    Send(MessageType::kJobDone, done_payload);
  }

  AgentContext& ctx_;
  int fd_;
  FrameDecoder& decoder_;
  uint64_t id_;
  std::string peer_;
  std::mutex send_mutex_;
  std::atomic<bool> broken_{false};
  std::thread job_thread_;
  std::atomic<bool> job_running_{false};
  std::atomic<bool> job_cancel_{false};
  std::unique_ptr<Sampler> telemetry_;
  std::unique_ptr<Sampler> net_telemetry_;
};

void ServeData(AgentContext& ctx, ScopedFd fd, FrameDecoder& decoder, const std::string& peer) {
  ReadOutcome got = ReadFrame(fd.get(), decoder, Now() + kDataAttachTimeout, &ctx.shutting_down);
  if (got.end != ReadEnd::kFrame || got.frame.type != MessageType::kDataAttach) {
    std::string message = got.end == ReadEnd::kFrame ? "expected DataAttach on a data connection, got " +
                                                           MessageTypeName(got.frame.type)
                                                     : got.status.message();
    if (got.end == ReadEnd::kFrame || got.end == ReadEnd::kProtocolError || got.end == ReadEnd::kTimeout)
      SendFrame(fd.get(), MessageType::kError, ErrorPayload("protocol", message), Now() + milliseconds(1000));
    Log(peer, "data connection dropped: " + message);
    return;
  }
  if (!ctx.net) {
    SendFrame(fd.get(), MessageType::kError, ErrorPayload("failed", "this agent has no network test"), Now() + kSendTimeout);
    return;
  }
  if (!decoder.TakeBuffered().empty()) {
    // The client must wait for DataAttached before sending raw bytes.
    SendFrame(fd.get(), MessageType::kError, ErrorPayload("protocol", "data sent before DataAttached"), Now() + kSendTimeout);
    return;
  }
  // Attach owns and closes the socket; a duplicate lets us still answer a refused attach.
  ScopedFd answer(::dup(fd.get()));
  Status s = ctx.net->Attach(got.frame.payload, std::move(fd), ctx.shutting_down);
  if (!s.ok() && s.kind() == ErrorKind::kBadInput && answer.valid())
    SendFrame(answer.get(), MessageType::kError, ErrorPayload("bad_request", s.message()), Now() + milliseconds(1000));
  if (!s.ok()) Log(peer, "data stream: " + s.message());
}

}  // namespace

void ServeConnection(AgentContext& ctx, ScopedFd fd, uint64_t connection_id, SteadyTime accepted_at,
                     const std::string& peer) {
  FrameDecoder decoder;
  std::string role = Authenticate(ctx, fd.get(), decoder, accepted_at + ctx.options.auth_timeout, peer);
  if (role.empty()) return;
  if (role == "data") return ServeData(ctx, std::move(fd), decoder, peer);
  ControlSession session(ctx, fd.get(), decoder, connection_id, peer);
  session.Run();
}

}  // namespace nasperf
