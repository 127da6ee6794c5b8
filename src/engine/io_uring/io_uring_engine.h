// io_uring: one ring per worker thread, registered (fixed) buffers and file. A direct
// job's submit() hands each I/O to the kernel at once; a buffered job's I/Os are submitted
// by reap() together with its wait, one system call for the batch.
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
  // SQEs prepared but not yet handed to the kernel (tests).
  unsigned unsubmitted() const { return io_uring_sq_ready(&ring_); }

 private:
  io_uring ring_{};
  bool ring_open_ = false;
  bool fixed_buffers_ = false;
  bool fixed_file_ = false;
  bool submit_each_ = false;  // direct I/O: one enter per I/O (see submit())
  int fd_ = -1;
  std::span<std::byte*> buffers_;
  std::vector<io_uring_cqe*> cqes_;  // sized at open(), reused by every reap()
};

}  // namespace nasperf
