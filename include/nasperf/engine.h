// The engine contract: how bytes move for one kind of target. Batch-shaped like
// liburing (prepare -> submit -> reap); a synchronous engine completes inside submit().
// An engine instance belongs to one worker thread; nothing here is thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

enum class IoDir : uint8_t { kRead, kWrite };

struct IoRequest {
  uint64_t offset;    // bytes from the start of the file or device
  uint32_t length;    // bytes
  IoDir dir;
  uint32_t slot;      // index of the buffer registered at open(); echoed in the completion
};

struct IoCompletion {
  uint32_t slot;
  int64_t result;     // bytes moved, or -errno
};

struct EngineCaps {
  bool asynchronous = false;  // true: more than one I/O in flight per thread is real
  bool fixed_buffers = false;
};

// A file on a server, for the protocol engines (src/proto/): each engine opens its own
// connection to it on its worker's thread. The target made the file and removes it.
struct RemoteFile {
  std::string server;    // host name or address
  uint16_t port = 0;     // 0: the protocol's default (or the portmapper's answer)
  std::string share;     // SMB share, NFS export, iSCSI target IQN
  std::string path;      // the file inside the share or export ("/dir/.nasperf-1-0.dat")
  std::string user, domain, password;  // credentials; never printed or stored
  uint32_t connect_timeout_ms = 10000;
};

// What a worker hands its engine: one open file (or device), and the I/O buffers.
struct EngineOpenParams {
  int fd = -1;                      // already opened by the target, owned by the target
  const RemoteFile* remote = nullptr;  // protocol targets: the file on the server (fd is -1)
  std::span<std::byte*> buffers;    // one per slot, each `buffer_bytes` long, aligned
  uint64_t buffer_bytes = 0;
  uint32_t queue_depth = 1;
  bool direct = false;              // the file was opened with O_DIRECT
  // Worker threads of this run in this process, each opening its own engine (an engine
  // whose library is not thread-safe keeps its session out of process when > 1).
  uint32_t workers = 1;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual const char* name() const = 0;
  virtual EngineCaps caps() const = 0;
  virtual Status open(const EngineOpenParams& params) = 0;
  // Queues requests; returns how many were accepted (all, unless the queue is full).
  // May complete them right away (synchronous engines).
  virtual Result<size_t> submit(std::span<const IoRequest> requests) = 0;
  // Pushes queued requests to the device and collects finished ones into `out`, waiting
  // until at least `min_complete` are done or `timeout` passes. Returns how many.
  virtual Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete,
                              std::chrono::microseconds timeout) = 0;
  // Makes written data durable (fsync). Called after all I/O has completed.
  virtual Status sync() = 0;
  virtual void close() = 0;
};

// The engine registry is proto/engine_registry.h (MakeEngine, EngineNames); the local
// engines and whether io_uring runs here are engine/local_engines.h.

}  // namespace nasperf
