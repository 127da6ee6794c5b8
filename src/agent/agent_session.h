// One accepted connection of `nasperf agent`: authentication, then either the control
// request loop or one data stream handed to NetService. Runs on its own thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "agent/agent_server.h"
#include "wire/frame_socket.h"
#include "agent/allowed_devices.h"
#include "agent/root_path.h"
#include "base/scoped_fd.h"

namespace nasperf {

// What every connection shares; owned by the server, outlives every connection thread.
struct AgentContext {
  AgentContext(AgentServerOptions o, RootDir r, DeviceAllowList d)
      : options(std::move(o)), root(std::move(r)), devices(std::move(d)) {}
  AgentServerOptions options;
  RootDir root;
  DeviceAllowList devices;  // fixed at start: read by every connection without a lock
  NetService* net = nullptr;
  std::atomic<bool> shutting_down{false};
  // Jobs run one at a time on an agent (two would measure each other): claimed by the
  // connection that starts a job and released by that job's own thread, so an atomic
  // flag, not a mutex (a mutex must be unlocked by the thread that locked it).
  std::atomic<bool> job_busy{false};
};

// Serves the connection until it closes, fails or the agent shuts down. Never throws.
void ServeConnection(AgentContext& ctx, ScopedFd fd, uint64_t connection_id, SteadyTime accepted_at,
                     const std::string& peer);

}  // namespace nasperf
