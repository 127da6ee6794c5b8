// Log-linear latency histogram (HDR-style): exact below 128 ns, then 128 linear
// sub-buckets per power of two, so any reported percentile is within 0.4 % of the
// true value. Fixed size, so recording never allocates. Not thread-safe: one per worker,
// merged after the run.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nasperf {

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr uint64_t kSubBuckets = 1u << kSubBucketBits;  // 128
  static constexpr int kMaxExponent = 47;                          // 2^48 ns ~ 3.3 days
  static constexpr size_t kBucketCount = (kMaxExponent - kSubBucketBits + 2) * kSubBuckets;

  // Records one latency in nanoseconds; values past the range land in the top bucket.
  void Record(uint64_t value_ns) {
    if (value_ns > max_ns_) max_ns_ = value_ns;
    if (value_ns < min_ns_) min_ns_ = value_ns;
    sum_ns_ += value_ns;
    ++count_;
    ++counts_[BucketIndex(value_ns)];
  }

  void Merge(const LatencyHistogram& other);
  void Clear();

  uint64_t count() const { return count_; }
  uint64_t max_ns() const { return count_ ? max_ns_ : 0; }
  uint64_t min_ns() const { return count_ ? min_ns_ : 0; }
  double mean_ns() const { return count_ ? static_cast<double>(sum_ns_) / count_ : 0.0; }
  // Value below which `fraction` (0..1) of the recorded values lie, in ns.
  double Percentile(double fraction) const;

  // Sparse form for storage: (bucket index, count) pairs of the non-empty buckets.
  std::vector<std::pair<uint32_t, uint64_t>> NonEmptyBuckets() const;

  // Compact, versioned byte form (little-endian): count, sum, min, max, then the
  // non-empty buckets. Deserialize returns false on anything malformed.
  std::string Serialize() const;
  static bool Deserialize(const std::string& bytes, LatencyHistogram* out);

  static size_t BucketIndex(uint64_t value_ns) {
    if (value_ns < kSubBuckets) return static_cast<size_t>(value_ns);
    int exponent = 63 - __builtin_clzll(value_ns);
    if (exponent > kMaxExponent) return kBucketCount - 1;
    int shift = exponent - kSubBucketBits;
    return static_cast<size_t>((exponent - kSubBucketBits + 1) * kSubBuckets +
                               ((value_ns >> shift) - kSubBuckets));
  }
  // Lowest value that falls in bucket `index`, and the bucket's width, in ns.
  static uint64_t BucketLow(size_t index);
  static uint64_t BucketWidth(size_t index);

 private:
  std::array<uint64_t, kBucketCount> counts_{};
  uint64_t count_ = 0;
  uint64_t sum_ns_ = 0;
  uint64_t max_ns_ = 0;
  uint64_t min_ns_ = UINT64_MAX;
};

}  // namespace nasperf
