// Frames over a TCP socket with deadlines: connect, send a whole frame, read the next
// frame. Shared by the client and the agent; every wait is bounded and can be cut short
// by a stop flag, so nothing here can hang.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "wire/wire.h"
#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

using SteadyTime = std::chrono::steady_clock::time_point;

// Writes all of `bytes` before `deadline` (MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE).
Status SendAll(int fd, std::string_view bytes, SteadyTime deadline);
// EncodeFrame + SendAll.
Status SendFrame(int fd, MessageType type, const nlohmann::json& payload, SteadyTime deadline);

enum class ReadEnd { kFrame, kTimeout, kClosed, kProtocolError, kStopped, kSocketError };
struct ReadOutcome {
  ReadEnd end = ReadEnd::kSocketError;
  Frame frame;    // when end == kFrame
  Status status;  // why, otherwise (protocol errors are BadInput naming the fault)
};
// The next frame from `fd` through `decoder`, waiting until `deadline`. Checks `stop`
// (may be null) every 100 ms.
ReadOutcome ReadFrame(int fd, FrameDecoder& decoder, SteadyTime deadline, const std::atomic<bool>* stop = nullptr);

}  // namespace nasperf
