// A TCP connection made within a deadline: the agent client, the SMB NEGOTIATE probe and
// the reachability check before a protocol library takes over all need the same thing.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

// "host:port", with an IPv6 literal in brackets.
std::string HostPort(const std::string& host, uint16_t port);

// A connected, non-blocking TCP socket (TCP_NODELAY) to host:port within `timeout`.
// Failure is Unavailable, one line naming `peer` (e.g. "agent", "smb://nas"), host:port
// and the reason: an unresolvable name, a refusal, no route, or no answer in time.
Result<ScopedFd> ConnectTcp(const std::string& peer, const std::string& host, uint16_t port,
                            std::chrono::milliseconds timeout);

// Whether a server listens at host:port: the connection is made and closed at once. The
// protocol libraries report an unreachable server vaguely ("Invalid argument",
// "nfs_service failed") or only after their own long timeouts; this says it plainly.
Status CheckReachable(const std::string& peer, const std::string& host, uint16_t port,
                      std::chrono::milliseconds timeout);

}  // namespace nasperf
