// AgentTelemetry: TelemetryStart, a reader thread, TelemetryStop → TelemetryDone.
#include "cli/agent_telemetry.h"

#include <cstdio>

#include "suite/agent_timeouts.h"

namespace nasperf {

AgentTelemetry::~AgentTelemetry() {
  stop_reader_ = true;
  if (reader_.joinable()) reader_.join();
}

void AgentTelemetry::Start() {
  if (Status s = conn_.Send(MessageType::kTelemetryStart, nlohmann::json::object()); !s.ok()) {
    Finish(nullptr, s.message());
    return;
  }
  reader_ = std::thread([this] { Read(); });
}

nlohmann::ordered_json AgentTelemetry::Stop() {
  if (reader_.joinable()) {
    if (Status s = conn_.Send(MessageType::kTelemetryStop, nlohmann::json::object()); !s.ok())
      Finish(nullptr, s.message());
    std::unique_lock<std::mutex> lock(mutex_);
    if (!done_cv_.wait_for(lock, kAgentRequestTimeout, [this] { return done_; })) {
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

void AgentTelemetry::Read() {
  while (!stop_reader_) {
    Result<std::optional<Frame>> got = conn_.TryReceive(kAgentPollTick);
    if (!got.ok()) return Finish(nullptr, got.status().message());
    if (!got.value()) continue;
    if (got.value()->type == MessageType::kTelemetryDone)
      return Finish(nlohmann::ordered_json(got.value()->payload.value("telemetry", nlohmann::json())), "");
    // TelemetrySample: the series comes whole with TelemetryDone; nothing to keep here.
  }
}

void AgentTelemetry::Finish(nlohmann::ordered_json telemetry, const std::string& warning) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (done_) return;
  telemetry_ = std::move(telemetry);
  warning_ = warning;
  done_ = true;
  done_cv_.notify_all();
}

}  // namespace nasperf
