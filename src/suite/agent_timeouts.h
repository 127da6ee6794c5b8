// How long the client side of the agent protocol waits, shared by --agent and --on.
#pragma once

#include <chrono>

namespace nasperf {

inline constexpr std::chrono::milliseconds kAgentConnectTimeout{5000};
inline constexpr std::chrono::milliseconds kAgentRequestTimeout{10000};
// The agent sends JobSample every second; this much silence means it or its disk is gone.
inline constexpr std::chrono::milliseconds kAgentSilenceLimit{3000};
inline constexpr std::chrono::milliseconds kAgentPollTick{200};

}  // namespace nasperf
