// io_uring: one ring per worker thread, registered (fixed) buffers and file; submit()
// hands each I/O to the kernel at once, reap() waits (and submits any a busy ring held).
#pragma once

#include <liburing.h>

#include <vector>

#include "nasperf/engine.h"

namespace nasperf {

class IoUringEngine final : public Engine {
 public:
  ~IoUringEngine() override { close(); }
  const char* name() const override { return "io_uring"; }
  EngineCaps caps() const override { return {.asynchronous = true, .fixed_buffers = fixed_buffers_}; }
  Status open(const EngineOpenParams& params) override;
  Result<size_t> submit(std::span<const IoRequest> requests) override;
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override;
  Status sync() override;
  void close() override;
  // SQEs prepared but not yet handed to the kernel (tests: submit() leaves none).
  unsigned unsubmitted() const { return io_uring_sq_ready(&ring_); }

 private:
  io_uring ring_{};
  bool ring_open_ = false;
  bool fixed_buffers_ = false;
  bool fixed_file_ = false;
  int fd_ = -1;
  std::span<std::byte*> buffers_;
  std::vector<io_uring_cqe*> cqes_;  // sized at open(), reused by every reap()
};

}  // namespace nasperf
