// What the files of an agent connection share: the clock, the log line, the Error payload.
#pragma once

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "wire/frame_socket.h"

namespace nasperf {

inline constexpr std::chrono::milliseconds kAgentSendTimeout{10000};

inline SteadyTime AgentNow() { return std::chrono::steady_clock::now(); }

inline void AgentLog(const std::string& peer, const std::string& what) {
  std::fprintf(stderr, "nasperf agent: %s: %s\n", peer.c_str(), what.c_str());
}

inline nlohmann::json AgentErrorPayload(const std::string& code, const std::string& message) {
  return {{"code", code}, {"message", message}};
}

}  // namespace nasperf
