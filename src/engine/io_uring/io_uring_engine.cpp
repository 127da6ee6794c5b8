// io_uring engine (liburing).
#include "engine/io_uring/io_uring_engine.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

namespace nasperf {

Status IoUringEngine::open(const EngineOpenParams& params) {
  fd_ = params.fd;
  buffers_ = params.buffers;
  submit_each_ = params.direct;
  // Newest flags first: single issuer + deferred task work keeps completion work on this
  // thread, inside the wait we already make; older kernels fall back step by step.
  const unsigned flag_sets[] = {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
                                IORING_SETUP_COOP_TASKRUN, 0};
  int rc = -EINVAL;
  for (unsigned flags : flag_sets) {
    io_uring_params p{};
    p.flags = flags;
    rc = io_uring_queue_init_params(params.queue_depth, &ring_, &p);
    if (rc == 0) break;
  }
  if (rc < 0) return ErrnoStatus("io_uring_queue_init", "", -rc, ErrorKind::kUnavailable);
  ring_open_ = true;
  cqes_.resize(params.queue_depth * 2);

  // Fixed buffers spare direct I/O a page pin per request, and buffered I/O the copy to
  // user memory: the kernel copies into a registered buffer's pages with its own memcpy,
  // 0.35 against 0.59 us per 4 KiB in the io-wq worker that limits bench/vs-fio case b,
  // and 164 against 193 us per 1 MiB in case c (Intel Xeon host, docs/performance.md,
  // 2026-12-01; on the AMD host of 2026-11-30 the 1 MiB copy was the dearer one). So
  // every job registers. A low RLIMIT_MEMLOCK may refuse them; then we go without.
  {
    std::vector<iovec> iovecs(buffers_.size());
    for (size_t i = 0; i < buffers_.size(); ++i) iovecs[i] = {buffers_[i], params.buffer_bytes};
    fixed_buffers_ = io_uring_register_buffers(&ring_, iovecs.data(), static_cast<unsigned>(iovecs.size())) == 0;
  }
  fixed_file_ = fd_ >= 0 && io_uring_register_files(&ring_, &fd_, 1) == 0;
  return Status::Ok();
}

Result<size_t> IoUringEngine::submit(std::span<const IoRequest> requests) {
  size_t accepted = 0;
  const int file = fixed_file_ ? 0 : fd_;
  for (const IoRequest& r : requests) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (!sqe) break;
    void* buf = buffers_[r.slot];
    if (fixed_buffers_) {
      if (r.dir == IoDir::kRead)
        io_uring_prep_read_fixed(sqe, file, buf, r.length, r.offset, static_cast<int>(r.slot));
      else
        io_uring_prep_write_fixed(sqe, file, buf, r.length, r.offset, static_cast<int>(r.slot));
    } else {
      if (r.dir == IoDir::kRead)
        io_uring_prep_read(sqe, file, buf, r.length, r.offset);
      else
        io_uring_prep_write(sqe, file, buf, r.length, r.offset);
    }
    if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
    if (ParallelCopy(r)) sqe->flags |= IOSQE_ASYNC;
    sqe->user_data = r.slot;
    ++accepted;
    // Direct I/O goes to the device as soon as it is prepared, as fio's default
    // iodepth_batch_submit=1 does: a refill held for reap()'s enter reached the virtio disk
    // as one plugged batch, and random 4 KiB O_DIRECT reads at qd 16 ran 8-10 % below
    // fio's. Buffered I/O is a kernel copy, not a device's queue: there an enter per I/O
    // cost 10 % of bench/vs-fio case b and doubled its p99 (docs/performance.md, issue
    // 19), so it waits for reap()'s enter. A busy ring keeps the SQE for that enter too.
    if (submit_each_) {
      const int rc = io_uring_submit(&ring_);
      if (rc < 0 && rc != -EAGAIN && rc != -EBUSY && rc != -EINTR) return ErrnoStatus("io_uring_enter", "", -rc);
    }
  }
  return accepted;
}

Result<size_t> IoUringEngine::reap(std::span<IoCompletion> out, size_t min_complete,
                                   std::chrono::microseconds timeout) {
  int rc;
  if (min_complete == 0) {
    rc = io_uring_submit(&ring_);
  } else {
    __kernel_timespec ts{};
    ts.tv_sec = timeout.count() / 1000000;
    ts.tv_nsec = (timeout.count() % 1000000) * 1000;
    io_uring_cqe* first = nullptr;
    rc = io_uring_submit_and_wait_timeout(&ring_, &first, static_cast<unsigned>(min_complete), &ts, nullptr);
  }
  if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
    return ErrnoStatus("io_uring_enter", "", -rc);

  size_t want = out.size() < cqes_.size() ? out.size() : cqes_.size();
  unsigned got = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(want));
  for (unsigned i = 0; i < got; ++i) {
    out[i].slot = static_cast<uint32_t>(cqes_[i]->user_data);
    out[i].result = cqes_[i]->res;
  }
  io_uring_cq_advance(&ring_, got);
  return static_cast<size_t>(got);
}

Status IoUringEngine::sync() {
  if (::fsync(fd_) != 0) return ErrnoStatus("fsync", "", errno);
  return Status::Ok();
}

void IoUringEngine::close() {
  if (ring_open_) io_uring_queue_exit(&ring_);
  ring_open_ = false;
}

}  // namespace nasperf
