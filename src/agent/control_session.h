// The request loop of one authenticated control connection of `nasperf agent`.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "agent/agent_job.h"
#include "agent/agent_session.h"
#include "nasperf/status.h"
#include "suite/sweep_run.h"
#include "sysinfo/telemetry/telemetry.h"
#include "wire/frame_socket.h"
#include "wire/messages.h"

namespace nasperf {

// The request loop of one authenticated control connection, and what it owns: at most
// one job (on its own thread), a telemetry sampler and the net sessions it started.
// Requests are handled in control_session.cpp, jobs and sweeps in control_job.cpp.
class ControlSession {
 public:
  ControlSession(AgentContext& ctx, int fd, FrameDecoder& decoder, uint64_t id, std::string peer)
      : ctx_(ctx), fd_(fd), decoder_(decoder), id_(id), peer_(std::move(peer)) {}
  ~ControlSession();

  // Serves requests until the connection closes, fails, idles out or the agent shuts down.
  void Run();

 private:
  using Sampler = sysinfo::telemetry::TelemetrySampler;
  class FrameSink;
  class FrameProgress;
  class JobWatch;

  // Sends from this thread, the job thread and the telemetry thread are serialised here.
  void Send(MessageType type, const nlohmann::json& payload);
  void SendError(const Status& s, const std::string& code_for_bad_input = "bad_request");

  void Handle(const AgentMessage& frame);
  void StartTelemetry();
  void StopTelemetry();
  void NetStart(const nlohmann::json& payload);
  void NetGo(const nlohmann::json& payload);
  void NetFinish(const nlohmann::json& payload);

  void StartJob(const JobStartMsg& start);
  // suite "app": the workload's child process on the job thread (agent_app.h).
  void StartApp(const JobStartMsg& start);
  // The job thread's body: runs the job or sweep and answers with JobDone (or Error).
  void RunJob(const AgentJobRequest& request);
  // The job's end: JobDone with its runs, or an Error when it has none.
  void FinishJob(const AgentJobOutcome& outcome);
  // The sweep's end: JobDone with its summary, or an Error when it never began.
  void FinishSweep(const SweepOutcome& outcome);

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

}  // namespace nasperf
