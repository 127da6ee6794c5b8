// The reaping loop of engines driven by a client library's event loop (libnfs, libiscsi):
// poll the library's socket for the events it asks for, let it process them (its
// callbacks queue completions), until enough completions are queued or time is up.
#pragma once

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <span>
#include <string>

#include "engine/completion_queue.h"
#include "nasperf/status.h"
#include "base/clock.h"

namespace nasperf {

// One round: waits up to `timeout_ms` for `events` on `fd`, then calls `service(revents)`
// (also with 0 on a timeout: the libraries check their RPC timeouts there); a negative
// return from it is the session failing.
template <typename Service>
Status ServiceOnce(int fd, short events, int timeout_ms, Service&& service, const std::string& what) {
  pollfd pfd{fd, events, 0};
  int n = ::poll(&pfd, 1, timeout_ms);
  if (n < 0) return errno == EINTR ? Status::Ok() : ErrnoStatus("poll", what, errno);
  if (service(n > 0 ? pfd.revents : 0) < 0) return Status::Io(what);
  return Status::Ok();
}

// Services (`round(wait_ms)` returns a Status) until `min_complete` completions — at most
// what is queued or in flight — are in `done` or `timeout` passes, then hands them out.
template <typename Round>
Result<size_t> ReapByPolling(CompletionQueue& done, size_t inflight, std::span<IoCompletion> out,
                             size_t min_complete, std::chrono::microseconds timeout, Round&& round) {
  const uint64_t deadline = MonotonicNs() + static_cast<uint64_t>(timeout.count()) * 1000;
  const size_t want = std::min(min_complete, done.size() + inflight);
  while (done.size() < want) {
    uint64_t now = MonotonicNs();
    if (now >= deadline) break;
    int wait_ms = static_cast<int>(std::min<uint64_t>((deadline - now + 999999) / 1000000, 1000));
    if (Status s = round(wait_ms); !s.ok()) return s;
  }
  return done.PopInto(out);
}

}  // namespace nasperf
