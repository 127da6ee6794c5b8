// The client end of the agent protocol: address parsing, the token, and one authenticated
// connection (control or data) with framed send/receive and timeouts.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wire/wire.h"
#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

struct AgentAddress {
  std::string host;  // a name, an IPv4 address or an IPv6 address without brackets
  uint16_t port = kDefaultPort;
  // "host:port", "[v6]:port" — what the user would type.
  std::string text() const;
};

// HOST, HOST:PORT, [V6] or [V6]:PORT. Bad text → BadInput, one line naming it.
// allow_port_zero: a listen address, where port 0 asks the kernel for a free port.
Result<AgentAddress> ParseAgentAddress(const std::string& text, uint16_t default_port = kDefaultPort,
                                       bool allow_port_zero = false);

// The client's token: --token-file FILE (content minus one trailing newline), else the
// environment variable NASPERF_TOKEN, else "" (only an --insecure agent accepts it).
// An unreadable token file → BadInput.
Result<std::string> LoadClientToken(const std::string& token_file);

// One authenticated connection. Movable, not copyable; use from one thread at a time
// (the fd may be polled by another thread).
class AgentConnection {
 public:
  // TCP connect, Hello/Challenge/Auth/AuthOk with the agent's MAC checked, all within
  // `timeout`. role is "control" or "data". A refused token → Io "... auth: ...".
  static Result<AgentConnection> Connect(const AgentAddress& address, const std::string& token,
                                         std::string_view role, std::chrono::milliseconds timeout);

  Status Send(MessageType type, const nlohmann::json& payload);
  // The next frame within `timeout`. An Error frame becomes a failed Status: code
  // bad_request or path → BadInput, others → Io. A timeout or a closed connection → Io.
  Result<Frame> Receive(std::chrono::milliseconds timeout);
  // Like Receive, but std::nullopt when nothing arrived within `timeout` (the connection
  // stays usable), so a caller can poll other things between waits.
  Result<std::optional<Frame>> TryReceive(std::chrono::milliseconds timeout);
  // Send then Receive; a frame of another type than `expected` → Io.
  Result<Frame> Request(MessageType type, const nlohmann::json& payload, MessageType expected,
                        std::chrono::milliseconds timeout);

  int fd() const { return fd_.get(); }
  // The socket, for raw data after DataAttached. Bytes already read past the last frame
  // are returned by TakeBuffered() and must be consumed first.
  ScopedFd ReleaseFd() { return std::move(fd_); }
  std::string TakeBuffered() { return decoder_.TakeBuffered(); }
  const AgentAddress& address() const { return address_; }

 private:
  AgentConnection(ScopedFd fd, AgentAddress address) : fd_(std::move(fd)), address_(std::move(address)) {}
  ScopedFd fd_;
  AgentAddress address_;
  FrameDecoder decoder_;
};

}  // namespace nasperf
