// NetService: the agent's side of `nasperf net` — sessions, data streams and their counts.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

struct NetSession;  // net_service.cpp

// Thread-safe: several control connections (clients) and their data connections may call
// it at once from different threads. A session belongs to the control connection that
// started it (control_id, any number unique per connection chosen by the caller).
class NetService {
 public:
  NetService();
  ~NetService();
  NetService(const NetService&) = delete;
  NetService& operator=(const NetService&) = delete;

  // NetStart payload {"dir","streams","seconds","omit","bs","zerocopy"} → NetReady payload
  // {"session": HEX32, "zerocopy": "sendfile"|"msg_zerocopy"|"none"}. "omit" (seconds,
  // 0..60, default 0) opens the window that long after the barrier. A malformed or
  // out-of-range request → BadInput (the caller answers Error "bad_request").
  Result<nlohmann::json> Start(const nlohmann::json& net_start_request, uint64_t control_id);

  // Serves one data connection after its DataAttach payload {"session","stream","dir"}:
  // validates it (unknown/finished session, stream out of range, wrong dir, stream already
  // attached → BadInput, nothing sent), sends the DataAttached frame itself, waits for the
  // barrier (Go; at most 30 s), then moves raw bytes: "up" reads and counts until EOF,
  // `stop`, or the window's end + grace; "down" sends from the barrier to the window's end
  // plus net::kSendTailNs, then shuts the sending side down. Blocks until the stream
  // ends; the socket is closed when it returns.
  Status Attach(const nlohmann::json& data_attach_request, ScopedFd socket, const std::atomic<bool>& stop);

  // NetGo payload {"session"} → NetGoing payload {}: the start barrier. Every stream of
  // the session must be attached (else BadInput "NetGo: 3 of 4 streams attached"); the
  // barrier is the moment this is called, and every stream starts moving bytes then.
  Result<nlohmann::json> Go(const nlohmann::json& net_go_request, uint64_t control_id);

  // NetFinish payload {"session", "window_end_us"} → NetReport payload
  // {"window": {"start_us","end_us"}, "streams": [{"stream","dir","end","stop_us",
  //  "bytes","received_bytes" (up) | "sent_bytes","send" (down)}], "telemetry": {}}.
  // The window is in microseconds after the barrier: planned as omit .. omit + seconds,
  // ended at the client's proposal (window_end_us: where its streams stopped) or at the
  // first of the agent's streams to stop, if earlier. Up "bytes" are what the agent
  // received inside it (the figure); down "sent_bytes" what it sent inside it. Waits
  // (bounded, a few seconds) for the session's attached streams to end, then frees the
  // session. Unknown session or one of another control connection → BadInput.
  Result<nlohmann::json> Finish(const nlohmann::json& net_finish_request, uint64_t control_id);

  // The control connection is gone: stop its sessions' streams and free the sessions.
  void ConnectionClosed(uint64_t control_id);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<NetSession>> sessions_;  // by session id (hex)
};

}  // namespace nasperf
