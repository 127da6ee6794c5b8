// The common measuring window of `nasperf net`: when counting starts (the start barrier
// plus the omit interval) and ends (the planned end, or the first stream that stopped),
// and the per-stream byte log that says how many bytes a receiver had by a given time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nasperf::net {

// How long a sender goes on past the window's end, so that every receiver is still
// receiving when its window closes (the two clocks differ by the start message's one-way
// delay); the receiver does not count these bytes.
inline constexpr uint64_t kSendTailNs = 250000000;

// A span of one side's MonotonicNs() clock: [start_ns, end_ns]; empty when end <= start.
struct Window {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t length_ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
  double seconds() const { return static_cast<double>(length_ns()) / 1e9; }
};

// The window every stream is counted in, planned at the start barrier: it opens
// `omit_s` after the barrier (TCP slow start and the first buffer fill are not counted,
// like iperf3 -O) and lasts `seconds`.
Window PlannedWindow(uint64_t barrier_ns, double omit_s, double seconds);

// `window`, ended at the earliest of `stop_ns` (when a stream stopped moving bytes) if
// that comes first; never before the window's start (the window is then empty). A zero
// stop (a stream that moved nothing) empties it too.
Window EndAtFirstStop(Window window, const std::vector<uint64_t>& stop_ns);

// A window on the wire: microseconds after that side's barrier, so both ends mean the
// same span although their clocks differ (by the one-way delay of the start message).
uint64_t UsAfter(uint64_t barrier_ns, uint64_t t_ns);            // 0 when t is before the barrier
uint64_t NsAt(uint64_t barrier_ns, uint64_t us_after_barrier);

// What one receiving stream had received by when: points (time, total bytes) at least
// `resolution_ns` apart, in a buffer allocated once (Record never allocates). When the
// buffer is full every second point is dropped and the resolution doubles, so a test of
// any length fits; a count over a window is off by at most the bytes of one resolution
// step at each end (1 ms at first; about 1 s for an hour-long test). Not thread-safe:
// written by the stream's thread, read after it ended.
class ByteLog {
 public:
  explicit ByteLog(size_t capacity_points = 4096, uint64_t resolution_ns = 1000000);

  // `total_bytes` had been received when `now_ns` was read; call after every receive
  // (also one that timed out), times never decreasing.
  void Record(uint64_t now_ns, uint64_t total_bytes);

  // The total at the last recorded time at or before `t_ns`; 0 before the first.
  uint64_t BytesAt(uint64_t t_ns) const;
  // The bytes received inside `window`, (start_ns, end_ns] (0 for an empty one).
  uint64_t BytesIn(const Window& window) const;

  uint64_t resolution_ns() const { return resolution_ns_; }

 private:
  struct Point {
    uint64_t t_ns = 0;
    uint64_t bytes = 0;
  };
  void Compact();

  std::vector<Point> points_;  // capacity fixed at construction
  size_t size_ = 0;
  uint64_t resolution_ns_;
  Point latest_;  // the newest Record, kept even when too close to points_[size_-1]
  bool has_latest_ = false;
};

}  // namespace nasperf::net
