// io_uring: one ring per worker thread, registered (fixed) buffers and file. A direct
// job's submit() hands each I/O to the kernel at once; a buffered job's I/Os are submitted
// by reap() together with its wait, one system call for the batch, its large reads marked
// for io_uring's worker pool (ParallelCopy below).
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
  // SQEs prepared but not yet handed to the kernel, and the flags of the i-th of them (tests).
  unsigned unsubmitted() const { return io_uring_sq_ready(&ring_); }
  uint8_t unsubmitted_flags(unsigned i) const {
    return ring_.sq.sqes[(ring_.sq.sqe_head + i) & ring_.sq.ring_mask].flags;
  }

  // A buffered read the page cache may hold goes to io_uring's worker pool at once
  // (IOSQE_ASYNC) from this size up. Without the flag a read tmpfs cannot do without
  // blocking is handed to one io-wq worker, which copies every block on one core while
  // the other idles: io-wq adds workers only for work marked so, or when its running one
  // sleeps, and a copy from the page cache never sleeps. Marked, the job's reads copy on
  // every core. `nasperf run` on a 1 GiB tmpfs file (2 vCPUs, 2026-12-07, docs/performance.md):
  // case c's job (1 MiB, qd 8) 5.4-6.2 GB/s unmarked, 11.1-11.3 marked; random qd 8 at
  // 16/32/64/128 KiB 3.9/5.6/6.0/5.3 against 4.0/6.0/7.6/8.7 GB/s. Below 32 KiB the
  // worker's hand-off costs more than the copy it spreads: case b's job (4 KiB, qd 32) fell
  // from 2.8-3.1 to 2.3-2.4 GB/s. Writes stay unmarked: io_uring hashes a regular file's
  // buffered writes to one io-wq worker, so the mark would spread nothing (not measured).
  static constexpr uint32_t kParallelCopyMinBytes = 32 * 1024;

 private:
  bool ParallelCopy(const IoRequest& r) const {
    return !submit_each_ && r.dir == IoDir::kRead && r.length >= kParallelCopyMinBytes;
  }

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
