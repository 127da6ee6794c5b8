// One worker thread's pacing schedule (--rate, --rate-iops): when each I/O is meant to
// start, and the wait until then. Inline, allocation-free; the only system call is the
// sleep when the worker is ahead of its schedule.
//
// The schedule, for this thread's I/O i (0-based) with B_i bytes issued before it:
//   intended_i = start + max(i x ns_per_io, B_i x ns_per_byte)
// The rates are the job's total, so each of `threads` threads paces 1/threads of them.
// The schedule is never reset: when the target falls behind, the I/Os that are due are
// issued at once and their latency, timed from the intended start, includes the wait
// (no coordinated omission). Think time is not on it: it is a closed loop that waits for
// completions (core/think_gate.h), as fio's thinktime is beside its rate.
#pragma once

#include <errno.h>
#include <time.h>

#include <algorithm>
#include <cstdint>

#include "base/clock.h"
#include "nasperf/job.h"

namespace nasperf {

// Waits below this are spun on the clock: a timer sleep would overshoot them.
inline constexpr uint64_t kPacerSpinBelowNs = 50000;
// About 127 years: the latest intended start the schedule computes.
inline constexpr double kFarFutureNs = 4e18;

class Pacer {
 public:
  // An unpaced schedule: every I/O is due at once.
  Pacer() = default;
  Pacer(const Pacing& pacing, uint32_t threads, uint64_t start_ns)
      : start_ns_(start_ns),
        ns_per_io_(pacing.rate_iops > 0 ? threads * 1e9 / pacing.rate_iops : 0),
        ns_per_byte_(pacing.rate_mb_per_s > 0 ? threads * 1e3 / pacing.rate_mb_per_s : 0) {}

  // The intended start of the next I/O, on the clock `start_ns` was read from.
  uint64_t due_ns() const {
    const double by_ios = static_cast<double>(ios_) * ns_per_io_;
    const double by_bytes = static_cast<double>(bytes_) * ns_per_byte_;
    // Clamped: a tiny rate over many threads can put an I/O centuries away, which must
    // not overflow the conversion (it is past any deadline either way).
    return start_ns_ + static_cast<uint64_t>(std::min(std::max(by_ios, by_bytes), kFarFutureNs));
  }

  // Moves the schedule past one I/O of `bytes`.
  void Issued(uint64_t bytes) {
    ++ios_;
    bytes_ += bytes;
  }

  uint64_t ios() const { return ios_; }

 private:
  uint64_t start_ns_ = 0;
  double ns_per_io_ = 0, ns_per_byte_ = 0;
  uint64_t ios_ = 0, bytes_ = 0;
};

// Sleeps on CLOCK_MONOTONIC until `until_ns` (MonotonicNs() time): an absolute
// clock_nanosleep (no drift from repeated sleeps) to the last kPacerSpinBelowNs, which
// are spun, since a timer wakes up to its slack (50 us) late and that lateness would count
// in every paced I/O's latency.
inline void PaceUntilNs(uint64_t until_ns) {
  if (until_ns > MonotonicNs() + kPacerSpinBelowNs) {
    const uint64_t wake_ns = until_ns - kPacerSpinBelowNs;
    timespec ts{static_cast<time_t>(wake_ns / 1000000000ull), static_cast<long>(wake_ns % 1000000000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  }
  while (MonotonicNs() < until_ns) {
  }
}

}  // namespace nasperf
