// One worker thread's think time (--think, --burst): a closed loop, as fio's thinktime and
// Iometer's transfer delay are. After every `burst` I/Os the thread issues nothing more
// until all of them have completed (fio's io_u_quiesce), then idles `think`; the next
// burst starts after that. A burst's period is therefore its service time plus the think,
// and the rate it gives depends on the target: 1 ms of think after every I/O of 250 us is
// 800 IOPS, not the 1,000 an open-loop period of 1 ms would claim. Only --rate and
// --rate-iops are a schedule fixed in advance (core/pacer.h), as in fio.
//
// fio counts completions (thinktime_blocks_type=complete, its default) and may issue up to
// iodepth - 1 more before it drains; nasperf stops issuing at the burst's last I/O. At
// queue depth 1 the two are the same loop. Iometer waits before a burst, nasperf after it:
// the same cycle but for the first burst.
//
// Inline and allocation-free: the worker asks may_issue() before each I/O and tells it
// what was issued and when the queue drained. No clock is read here: the worker passes
// the one it reads anyway.
#pragma once

#include <algorithm>
#include <cstdint>

#include "nasperf/job.h"

namespace nasperf {

class ThinkGate {
 public:
  // Without think time the gate never closes.
  ThinkGate() = default;
  explicit ThinkGate(const Pacing& pacing)
      : think_ns_(static_cast<uint64_t>(pacing.think_s * 1e9)),
        burst_(pacing.think_s > 0 ? std::max<uint32_t>(pacing.burst, 1) : 0) {}

  bool active() const { return burst_ != 0; }

  // Whether the next I/O may be issued at `now_ns`: not while the burst drains, not
  // before its think time is over.
  bool may_issue(uint64_t now_ns) const {
    return state_ == State::kIssuing || (state_ == State::kThinking && now_ns >= resume_ns_);
  }

  // Thinking: when the next burst may start; 0 otherwise (draining waits for completions,
  // not for a time).
  uint64_t resume_ns() const { return state_ == State::kThinking ? resume_ns_ : 0; }

  // One I/O issued; the burst's last one closes the gate until the queue drains.
  void Issued() {
    if (!burst_) return;
    state_ = State::kIssuing;  // a think that was over is now past
    if (++in_burst_ == burst_) {
      in_burst_ = 0;
      state_ = State::kDraining;
    }
  }

  // Called with the thread's I/Os in flight after each reap: once a finished burst has
  // fully completed, its think time starts at `now_ns`.
  void Reaped(uint32_t inflight, uint64_t now_ns) {
    if (state_ != State::kDraining || inflight != 0) return;
    state_ = State::kThinking;
    resume_ns_ = now_ns + think_ns_;
  }

 private:
  enum class State { kIssuing, kDraining, kThinking };

  uint64_t think_ns_ = 0;
  uint32_t burst_ = 0;  // 0: no think time
  uint32_t in_burst_ = 0;
  State state_ = State::kIssuing;
  uint64_t resume_ns_ = 0;
};

}  // namespace nasperf
