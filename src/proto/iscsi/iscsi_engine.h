// The iscsi engine: libiscsi's asynchronous READ(16)/WRITE(16), so --qd commands are really
// in flight on one iSCSI session per worker thread. Reads land straight in the slot's
// buffer (an iovec), writes go from it: no copy on nasperf's side.
#pragma once

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include <optional>
#include <vector>

#include "engine/completion_queue.h"
#include "nasperf/engine.h"
#include "proto/iscsi/iscsi_session.h"

namespace nasperf {

class IscsiEngine final : public Engine {
 public:
  ~IscsiEngine() override { close(); }
  const char* name() const override { return "iscsi"; }
  EngineCaps caps() const override { return {true, false}; }
  Status open(const EngineOpenParams& params) override;
  Result<size_t> submit(std::span<const IoRequest> requests) override;
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override;
  Status sync() override;
  void close() override;

 private:
  struct Pending {
    IscsiEngine* engine = nullptr;
    uint32_t slot = 0;
    uint32_t length = 0;
    scsi_iovec iov{};  // must live until the read completes
  };
  static void OnDone(iscsi_context* iscsi, int status, void* command_data, void* private_data);
  Status Service(int timeout_ms);

  std::optional<IscsiSession> session_;
  std::string where_;  // iscsi://HOST:PORT/IQN/LUN, for error messages
  std::span<std::byte*> buffers_;
  std::vector<Pending> pending_;
  CompletionQueue done_;
  size_t inflight_ = 0;
};

}  // namespace nasperf
