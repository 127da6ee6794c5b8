// `nasperf agent`: the server end of docs/agent-protocol.md. One accept loop, one thread
// per connection; jobs, telemetry and net sessions belong to their control connection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

// The network test's server side, implemented in src/net/net_service.{h,cpp}. The agent
// server calls exactly these, from connection threads (so they must be thread-safe):
//   Result<nlohmann::json> Start(const nlohmann::json& request, uint64_t control_id);
//       NetStart on control connection `control_id` → the NetReady payload.
//   Result<nlohmann::json> Finish(const nlohmann::json& request, uint64_t control_id);
//       NetFinish → the NetReport payload.
//   Status Attach(const nlohmann::json& request, ScopedFd socket, const std::atomic<bool>& stop);
//       DataAttach on an authenticated data connection: validates, sends DataAttached
//       itself (EncodeFrame), then serves raw bytes, blocking until done or `stop`.
//   void ConnectionClosed(uint64_t control_id);
//       the control connection is gone: free its sessions.
// A failed Status from Start/Finish/Attach with kind BadInput is answered
// Error{"code":"bad_request"}, others Error{"code":"failed"}.
class NetService;

struct AgentServerOptions {
  std::string listen = "127.0.0.1:7070";  // ADDR:PORT; port 0 picks a free one
  std::string root = ".";                  // every client path is confined to it
  // Block devices clients may read raw (agent/allowed_devices.h): named ones, and the
  // member devices of the volume holding root. Nothing else outside root, ever.
  std::vector<std::string> allow_devices;
  bool allow_volume_members = false;
  std::string token;                       // the shared secret; "" only with insecure
  bool insecure = false;                   // allowed only on a loopback listen address
  int max_connections = 64;                // beyond it: Error{"code":"busy"} and close
  std::chrono::milliseconds auth_timeout{5000};
  std::chrono::milliseconds idle_timeout{60000};
};

class AgentServer {
 public:
  // Binds and listens; BadInput for a bad address, Unavailable when the port is taken.
  static Result<std::unique_ptr<AgentServer>> Listen(const AgentServerOptions& options);
  ~AgentServer();

  // "127.0.0.1:40123": the address actually bound (port 0 resolved).
  std::string bound_address() const;
  uint16_t bound_port() const;
  // The real path of --root.
  const std::string& root() const;
  // The real paths of the devices clients may read raw.
  std::vector<std::string> allowed_devices() const;

  // Serves until `stop` becomes true (or InterruptRequested() when watch_signals), then
  // stops accepting, cancels running jobs (they remove their files) and joins every
  // connection thread.
  Status Serve(const std::atomic<bool>& stop, bool watch_signals);

  struct Impl;

 private:
  explicit AgentServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace nasperf
