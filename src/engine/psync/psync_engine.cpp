// psync engine: the portable baseline every other engine is compared with.
#include "engine/psync/psync_engine.h"

#include <unistd.h>

#include <cerrno>

namespace nasperf {

Status PsyncEngine::open(const EngineOpenParams& params) {
  fd_ = params.fd;
  buffers_ = params.buffers;
  done_.Reserve(params.queue_depth);
  return Status::Ok();
}

Result<size_t> PsyncEngine::submit(std::span<const IoRequest> requests) {
  size_t accepted = 0;
  for (const IoRequest& r : requests) {
    if (done_.Full()) break;
    std::byte* buf = buffers_[r.slot];
    // Regular files and devices only return short transfers at the end or on error; loop
    // anyway so a signal-interrupted transfer is completed rather than miscounted.
    uint64_t moved = 0;
    int64_t result = 0;
    while (moved < r.length) {
      ssize_t n = r.dir == IoDir::kRead ? ::pread(fd_, buf + moved, r.length - moved, r.offset + moved)
                                        : ::pwrite(fd_, buf + moved, r.length - moved, r.offset + moved);
      if (n < 0) {
        if (errno == EINTR) continue;
        result = -errno;
        break;
      }
      if (n == 0) break;
      moved += static_cast<uint64_t>(n);
    }
    done_.Push({r.slot, result < 0 ? result : static_cast<int64_t>(moved)});
    ++accepted;
  }
  return accepted;
}

Result<size_t> PsyncEngine::reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) {
  return done_.PopInto(out);
}

Status PsyncEngine::sync() {
  if (::fsync(fd_) != 0) return ErrnoStatus("fsync", "", errno);
  return Status::Ok();
}

}  // namespace nasperf
