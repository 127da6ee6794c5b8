// A control connection's request loop and its requests other than jobs (control_job.cpp).
#include "agent/control_session.h"

#include <algorithm>
#include <variant>

#include "agent/session_common.h"
#include "net/net_service.h"
#include "report/telemetry_text.h"
#include "sysinfo/inventory.h"
#include "wire/agent_devices.h"
#include "model/inventory_json.h"

namespace nasperf {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kLoopTick{250};

const nlohmann::json kEmptyObject = nlohmann::json::object();

// Types a client may send on an authenticated control connection.
bool IsControlRequest(MessageType t) {
  switch (t) {
    case MessageType::kInventoryGet:
    case MessageType::kNetStart:
    case MessageType::kNetGo:
    case MessageType::kNetFinish:
    case MessageType::kJobStart:
    case MessageType::kJobCancel:
    case MessageType::kTelemetryStart:
    case MessageType::kTelemetryStop:
    case MessageType::kPing:
    case MessageType::kPong:
      return true;
    default:
      return false;
  }
}

}  // namespace

ControlSession::~ControlSession() {
  // However the connection ended, nothing it started outlives it.
  job_cancel_.store(true);
  if (job_thread_.joinable()) job_thread_.join();
  if (telemetry_) telemetry_->Stop();
  if (net_telemetry_) net_telemetry_->Stop();
  if (ctx_.net) ctx_.net->ConnectionClosed(id_);
}

void ControlSession::Run() {
  SteadyTime idle_deadline = AgentNow() + ctx_.options.idle_timeout;
  while (!broken_.load()) {
    if (job_thread_.joinable() && !job_running_.load()) {
      job_thread_.join();
      idle_deadline = AgentNow() + ctx_.options.idle_timeout;
    }
    ReadOutcome got = ReadFrame(fd_, decoder_, std::min(idle_deadline, AgentNow() + kLoopTick), &ctx_.shutting_down);
    if (got.end == ReadEnd::kTimeout) {
      // A job or telemetry in progress is not idleness: the client is waiting for them.
      if (job_running_.load() || telemetry_) idle_deadline = AgentNow() + ctx_.options.idle_timeout;
      if (AgentNow() >= idle_deadline) {
        Send(MessageType::kError, AgentErrorPayload("protocol", "idle for too long: closing"));
        AgentLog(peer_, "closed: idle");
        return;
      }
      continue;
    }
    if (got.end == ReadEnd::kProtocolError) {
      Send(MessageType::kError, AgentErrorPayload("protocol", got.status.message()));
      AgentLog(peer_, "dropped: " + got.status.message());
      return;
    }
    if (got.end != ReadEnd::kFrame) return;  // closed, reset or shutting down
    if (!IsControlRequest(got.frame.type)) {
      std::string message =
          "protocol error: " + MessageTypeName(got.frame.type) + " is not allowed on a control connection";
      Send(MessageType::kError, AgentErrorPayload("protocol", message));
      AgentLog(peer_, "dropped: " + message);
      return;
    }
    // Every field's type and size is checked here, before any handler reads it; a frame
    // that fails is answered and the connection closed (other sessions go on).
    Result<AgentMessage> message = DecodeMessage(got.frame);
    if (!message.ok()) {
      Send(MessageType::kError, AgentErrorPayload("bad_request", message.status().message()));
      AgentLog(peer_, "dropped: " + message.status().message());
      return;
    }
    Handle(message.value());
    idle_deadline = AgentNow() + ctx_.options.idle_timeout;
  }
}

void ControlSession::Send(MessageType type, const nlohmann::json& payload) {
  std::lock_guard<std::mutex> lock(send_mutex_);
  if (broken_.load()) return;
  if (!SendFrame(fd_, type, payload, AgentNow() + kAgentSendTimeout).ok()) broken_.store(true);
}

void ControlSession::SendError(const Status& s, const std::string& code_for_bad_input) {
  Send(MessageType::kError,
       AgentErrorPayload(s.kind() == ErrorKind::kBadInput ? code_for_bad_input : "failed", s.message()));
}

void ControlSession::Handle(const AgentMessage& frame) {
  const nlohmann::json& payload =
      std::holds_alternative<ObjectMsg>(frame.body) ? std::get<ObjectMsg>(frame.body).payload : kEmptyObject;
  switch (frame.type) {
    case MessageType::kPing:
      Send(MessageType::kPong, nlohmann::json::object());
      return;
    case MessageType::kPong:
      return;
    case MessageType::kInventoryGet:
      Send(MessageType::kInventory, {{"inventory", InventoryToJson(GatherInventory(ctx_.root.real_path()))},
                                     {"allowed_devices", AgentDevicesToJson(ctx_.devices.ForWire())}});
      return;
    case MessageType::kJobStart:
      return StartJob(std::get<JobStartMsg>(frame.body));
    case MessageType::kJobCancel:
      if (!job_running_.load()) return SendError(Status::BadInput("JobCancel: no job is running"));
      job_cancel_.store(true);
      return;  // the job answers with JobDone (partial)
    case MessageType::kTelemetryStart:
      return StartTelemetry();
    case MessageType::kTelemetryStop:
      return StopTelemetry();
    case MessageType::kNetStart:
      return NetStart(payload);
    case MessageType::kNetGo:
      return NetGo(payload);
    case MessageType::kNetFinish:
      return NetFinish(payload);
    default:
      return;
  }
}

void ControlSession::StartTelemetry() {
  if (telemetry_) return SendError(Status::BadInput("TelemetryStart: telemetry is already running"));
  telemetry_ = std::make_unique<Sampler>(SummariseTelemetry);
  telemetry_->Start(
      [this](const nlohmann::ordered_json& sample) { Send(MessageType::kTelemetrySample, nlohmann::json(sample)); });
}

void ControlSession::StopTelemetry() {
  if (!telemetry_) return SendError(Status::BadInput("TelemetryStop: telemetry is not running"));
  nlohmann::ordered_json telemetry = telemetry_->Stop();
  telemetry_.reset();
  Send(MessageType::kTelemetryDone, {{"telemetry", nlohmann::json(telemetry)}});
}

void ControlSession::NetStart(const nlohmann::json& payload) {
  if (!ctx_.net) return SendError(Status::Unavailable("NetStart: this agent has no network test"));
  Result<nlohmann::json> ready = ctx_.net->Start(payload, id_);
  if (!ready.ok()) return SendError(ready.status());
  if (!net_telemetry_) {
    net_telemetry_ = std::make_unique<Sampler>(SummariseTelemetry);
    net_telemetry_->Start();
  }
  Send(MessageType::kNetReady, ready.value());
}

void ControlSession::NetGo(const nlohmann::json& payload) {
  if (!ctx_.net) return SendError(Status::Unavailable("NetGo: this agent has no network test"));
  Result<nlohmann::json> going = ctx_.net->Go(payload, id_);
  if (!going.ok()) return SendError(going.status());
  Send(MessageType::kNetGoing, going.value());
}

void ControlSession::NetFinish(const nlohmann::json& payload) {
  if (!ctx_.net) return SendError(Status::Unavailable("NetFinish: this agent has no network test"));
  Result<nlohmann::json> report = ctx_.net->Finish(payload, id_);
  if (!report.ok()) return SendError(report.status());
  nlohmann::json answer = report.value();
  if (net_telemetry_) {
    answer["telemetry"] = nlohmann::json(net_telemetry_->Stop());
    net_telemetry_.reset();
  }
  Send(MessageType::kNetReport, answer);
}

}  // namespace nasperf
