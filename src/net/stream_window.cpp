// The common measuring window of `nasperf net` and the receivers' byte logs.
#include "net/stream_window.h"

#include <algorithm>

namespace nasperf::net {

Window PlannedWindow(uint64_t barrier_ns, double omit_s, double seconds) {
  Window w;
  w.start_ns = barrier_ns + static_cast<uint64_t>(std::max(0.0, omit_s) * 1e9);
  w.end_ns = w.start_ns + static_cast<uint64_t>(std::max(0.0, seconds) * 1e9);
  return w;
}

Window EndAtFirstStop(Window window, const std::vector<uint64_t>& stop_ns) {
  for (uint64_t stop : stop_ns) window.end_ns = std::min(window.end_ns, stop);
  window.end_ns = std::max(window.end_ns, window.start_ns);
  return window;
}

uint64_t UsAfter(uint64_t barrier_ns, uint64_t t_ns) { return t_ns > barrier_ns ? (t_ns - barrier_ns) / 1000 : 0; }

uint64_t NsAt(uint64_t barrier_ns, uint64_t us_after_barrier) { return barrier_ns + us_after_barrier * 1000; }

ByteLog::ByteLog(size_t capacity_points, uint64_t resolution_ns)
    : points_(std::max<size_t>(capacity_points, 4)), resolution_ns_(std::max<uint64_t>(resolution_ns, 1)) {}

void ByteLog::Compact() {
  // Keep points 0, 2, 4, ...: still in time order, now at least twice as far apart.
  size_t kept = 0;
  for (size_t i = 0; i < size_; i += 2) points_[kept++] = points_[i];
  size_ = kept;
  resolution_ns_ *= 2;
}

void ByteLog::Record(uint64_t now_ns, uint64_t total_bytes) {
  latest_ = {now_ns, total_bytes};
  has_latest_ = true;
  if (size_ > 0 && now_ns - points_[size_ - 1].t_ns < resolution_ns_) return;
  if (size_ == points_.size()) Compact();
  points_[size_++] = latest_;
}

uint64_t ByteLog::BytesAt(uint64_t t_ns) const {
  if (has_latest_ && latest_.t_ns <= t_ns) return latest_.bytes;
  // The last point at or before t_ns.
  auto end = points_.begin() + static_cast<std::ptrdiff_t>(size_);
  auto after = std::upper_bound(points_.begin(), end, t_ns, [](uint64_t t, const Point& p) { return t < p.t_ns; });
  if (after == points_.begin()) return 0;
  return std::prev(after)->bytes;
}

uint64_t ByteLog::BytesIn(const Window& window) const {
  if (window.length_ns() == 0) return 0;
  return BytesAt(window.end_ns) - BytesAt(window.start_ns);
}

}  // namespace nasperf::net
