// How a run's workers are told to stop, and why: "time to stop, normally" (the steady-state
// rule held, another rank finished first) keeps the run's closing fsync inside the clock
// and its --verify pass after it, as --time's deadline does; "abort" (an I/O error, Ctrl-C,
// a peer's failure) skips both, since a failed run has nothing trustworthy to finish.
#pragma once

#include <atomic>
#include <cstdint>

namespace nasperf {

enum class StopKind : uint8_t { kNone = 0, kFinish = 1, kAbort = 2 };

// Set by the runner's sampling thread and by any worker; read by every worker. An abort
// wins over a finish, whichever comes first; a finish never undoes an abort.
// Thread-safe; relaxed ordering, as it publishes no other data.
class RunStop {
 public:
  void Finish() {
    uint8_t none = static_cast<uint8_t>(StopKind::kNone);
    state_.compare_exchange_strong(none, static_cast<uint8_t>(StopKind::kFinish), std::memory_order_relaxed);
  }
  void Abort() { state_.store(static_cast<uint8_t>(StopKind::kAbort), std::memory_order_relaxed); }
  void Request(StopKind kind) {
    if (kind == StopKind::kAbort)
      Abort();
    else if (kind == StopKind::kFinish)
      Finish();
  }
  bool requested() const { return state_.load(std::memory_order_relaxed) != static_cast<uint8_t>(StopKind::kNone); }
  bool aborted() const { return state_.load(std::memory_order_relaxed) == static_cast<uint8_t>(StopKind::kAbort); }

 private:
  std::atomic<uint8_t> state_{static_cast<uint8_t>(StopKind::kNone)};
};

}  // namespace nasperf
