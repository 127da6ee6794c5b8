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

namespace {

constexpr uint8_t kSerialVersion = 1;

void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

bool GetU64(const std::string& in, size_t* at, uint64_t* v) {
  if (*at + 8 > in.size()) return false;
  *v = 0;
  for (int i = 0; i < 8; ++i) *v |= static_cast<uint64_t>(static_cast<uint8_t>(in[*at + i])) << (8 * i);
  *at += 8;
  return true;
}

}  // namespace

std::string LatencyHistogram::Serialize() const {
  std::string out;
  out.push_back(static_cast<char>(kSerialVersion));
  PutU64(&out, count_);
  PutU64(&out, sum_ns_);
  PutU64(&out, min_ns_);
  PutU64(&out, max_ns_);
  for (const auto& [index, count] : NonEmptyBuckets()) {
    PutU64(&out, index);
    PutU64(&out, count);
  }
  return out;
}

bool LatencyHistogram::Deserialize(const std::string& bytes, LatencyHistogram* out) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kSerialVersion) return false;
  LatencyHistogram h;
  size_t at = 1;
  if (!GetU64(bytes, &at, &h.count_) || !GetU64(bytes, &at, &h.sum_ns_) || !GetU64(bytes, &at, &h.min_ns_) ||
      !GetU64(bytes, &at, &h.max_ns_))
    return false;
  uint64_t total = 0;
  while (at < bytes.size()) {
    uint64_t index = 0, count = 0;
    if (!GetU64(bytes, &at, &index) || !GetU64(bytes, &at, &count) || index >= kBucketCount) return false;
    h.counts_[index] += count;
    total += count;
  }
  if (total != h.count_) return false;
  *out = h;
  return true;
}

}  // namespace nasperf
