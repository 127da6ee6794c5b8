// The NAS's telemetry from an agent (--agent) around one job run on this machine.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "wire/agent_client.h"

namespace nasperf {

// The agent's telemetry around one local job: TelemetryStart, a reader thread draining
// the 1 Hz samples (so the agent never blocks on a full socket), TelemetryStop → Done.
class AgentTelemetry {
 public:
  explicit AgentTelemetry(AgentConnection& conn) : conn_(conn) {}
  ~AgentTelemetry();

  void Start();
  // The agent's {"samples", "summary", ...}, or null with a warning on stderr.
  nlohmann::ordered_json Stop();

 private:
  void Read();
  void Finish(nlohmann::ordered_json telemetry, const std::string& warning);

  AgentConnection& conn_;
  std::thread reader_;
  std::atomic<bool> stop_reader_{false};
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  nlohmann::ordered_json telemetry_;
  std::string warning_;
};

}  // namespace nasperf
