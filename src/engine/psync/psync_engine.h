// psync: pread/pwrite, one I/O at a time, completed inside submit().
#pragma once

#include "engine/completion_queue.h"
#include "nasperf/engine.h"

namespace nasperf {

class PsyncEngine final : public Engine {
 public:
  const char* name() const override { return "psync"; }
  EngineCaps caps() const override { return {.asynchronous = false, .fixed_buffers = false}; }
  Status open(const EngineOpenParams& params) override;
  Result<size_t> submit(std::span<const IoRequest> requests) override;
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override;
  Status sync() override;
  void close() override {}

 private:
  int fd_ = -1;
  std::span<std::byte*> buffers_;
  CompletionQueue done_;
};

}  // namespace nasperf
