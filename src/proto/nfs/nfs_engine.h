// The nfs engine: libnfs's asynchronous READ/WRITE, so --qd I/Os are really in flight on
// one TCP connection per worker thread. Its own connection and mount, made on the
// worker's thread in open().
#pragma once

#include <optional>
#include <vector>

#include "engine/completion_queue.h"
#include "nasperf/engine.h"
#include "proto/nfs/nfs_session.h"

struct nfsfh;

namespace nasperf {

class NfsEngine final : public Engine {
 public:
  ~NfsEngine() override { close(); }
  const char* name() const override { return "nfs"; }
  EngineCaps caps() const override { return {true, false}; }
  Status open(const EngineOpenParams& params) override;
  Result<size_t> submit(std::span<const IoRequest> requests) override;
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override;
  Status sync() override;
  void close() override;

 private:
  // What libnfs's callback gets back for one in-flight I/O: fixed per slot, so
  // submitting allocates nothing on nasperf's side.
  struct Pending {
    NfsEngine* engine = nullptr;
    uint32_t slot = 0;
    bool read = false;
  };
  static void OnDone(int status, struct nfs_context* nfs, void* data, void* private_data);
  Status Service(int timeout_ms);

  std::optional<NfsSession> session_;
  nfsfh* file_ = nullptr;
  std::string path_;
  std::string where_;  // nfs://HOST[:PORT]/EXPORT/FILE, for error messages
  std::span<std::byte*> buffers_;
  std::vector<Pending> pending_;
  CompletionQueue done_;
  size_t inflight_ = 0;
};

}  // namespace nasperf
