// Percentiles and merging for LatencyHistogram.
#include "stats/histogram.h"

#include <algorithm>
#include <cmath>

namespace nasperf {

uint64_t LatencyHistogram::BucketLow(size_t index) {
  if (index < kSubBuckets) return index;
  size_t group = index / kSubBuckets;  // >= 1
  int exponent = static_cast<int>(group) + kSubBucketBits - 1;
  uint64_t sub = index % kSubBuckets;
  return (kSubBuckets + sub) << (exponent - kSubBucketBits);
}

uint64_t LatencyHistogram::BucketWidth(size_t index) {
  if (index < kSubBuckets) return 1;
  size_t group = index / kSubBuckets;
  return uint64_t{1} << (group - 1);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBucketCount; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ns_ += other.sum_ns_;
  max_ns_ = std::max(max_ns_, other.max_ns_);
  min_ns_ = std::min(min_ns_, other.min_ns_);
}

void LatencyHistogram::Clear() { *this = LatencyHistogram(); }

double LatencyHistogram::Percentile(double fraction) const {
  if (count_ == 0) return 0.0;
  fraction = std::clamp(fraction, 0.0, 1.0);
  // Rank of the wanted value among the sorted recordings, 1-based (nearest-rank method).
  uint64_t rank = static_cast<uint64_t>(std::ceil(fraction * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      if (BucketWidth(i) == 1) return static_cast<double>(BucketLow(i));
      double mid = static_cast<double>(BucketLow(i)) + static_cast<double>(BucketWidth(i) - 1) / 2.0;
      // The true extremes are known exactly; never report outside them.
      return std::clamp(mid, static_cast<double>(min_ns_), static_cast<double>(max_ns_));
    }
  }
  return static_cast<double>(max_ns_);
}

std::vector<std::pair<uint32_t, uint64_t>> LatencyHistogram::NonEmptyBuckets() const {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (size_t i = 0; i < kBucketCount; ++i)
    if (counts_[i]) out.emplace_back(static_cast<uint32_t>(i), counts_[i]);
  return out;
}

}  // namespace nasperf
