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
#include "platform/scoped_fd.h"

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

  // NetStart payload {"dir","streams","seconds","bs","zerocopy"} → NetReady payload
  // {"session": HEX32, "zerocopy": "sendfile"|"msg_zerocopy"|"none"}. A malformed or
  // out-of-range request → BadInput (the caller answers Error "bad_request").
  Result<nlohmann::json> Start(const nlohmann::json& net_start_request, uint64_t control_id);

  // Serves one data connection after its DataAttach payload {"session","stream","dir"}:
  // validates it (unknown/finished session, stream out of range, wrong dir, stream already
  // attached → BadInput, nothing sent), sends the DataAttached frame itself, then moves raw
  // bytes: "up" reads and counts until EOF, `stop`, or the session's seconds + grace;
  // "down" sends for the session's seconds from DataAttached on, then shuts the sending
  // side down. Blocks until the stream ends; the socket is closed when it returns.
  Status Attach(const nlohmann::json& data_attach_request, ScopedFd socket, const std::atomic<bool>& stop);

  // NetFinish payload {"session"} → NetReport payload
  // {"streams": [{"stream","dir","bytes","seconds","end"[,"send"]}], "telemetry": {}}:
  // seconds from DataAttached to the last byte, end "done" or why the stream stopped,
  // send (down streams) how the agent sent: "sendfile" or, on loopback, "none". Waits (bounded,
  // a few seconds) for the session's attached streams to end, then frees the session.
  // Unknown session or one of another control connection → BadInput.
  Result<nlohmann::json> Finish(const nlohmann::json& net_finish_request, uint64_t control_id);

  // The control connection is gone: stop its sessions' streams and free the sessions.
  void ConnectionClosed(uint64_t control_id);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<NetSession>> sessions_;  // by session id (hex)
};

}  // namespace nasperf
