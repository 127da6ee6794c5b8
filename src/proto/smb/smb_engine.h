// The smb engine: libsmbclient's read and write, one I/O at a time (the library has no
// asynchronous calls; it pipelines one large read or write itself). Its own context and
// TCP connection, made in open(): in this process for one worker thread, in a helper
// process of its own for several (libsmbclient is not thread-safe; smb_io_helper.h).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/completion_queue.h"
#include "nasperf/engine.h"
#include "proto/smb/smb_io_helper.h"
#include "proto/smb/smb_session.h"

namespace nasperf {

class SmbEngine final : public Engine {
 public:
  ~SmbEngine() override { close(); }
  const char* name() const override { return "smb"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams& params) override;
  Result<size_t> submit(std::span<const IoRequest> requests) override;
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override;
  Status sync() override;
  void close() override;

 private:
  std::unique_ptr<SmbHelperProcess> helper_;  // several workers: the session lives there
  std::optional<SmbSession> session_;
  _SMBCFILE* file_ = nullptr;
  std::string path_;
  std::span<std::byte*> buffers_;
  CompletionQueue done_;
};

}  // namespace nasperf
