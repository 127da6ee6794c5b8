// The agent's side of the handshake (Hello, Challenge, Auth, AuthOk) on a new connection.
#pragma once

#include <string>

#include "agent/agent_session.h"
#include "wire/frame_socket.h"

namespace nasperf {

// The handshake; returns the role ("control" | "data") or "" after answering the failure.
std::string Authenticate(AgentContext& ctx, int fd, FrameDecoder& decoder, SteadyTime deadline,
                         const std::string& peer);

}  // namespace nasperf
