// Histogram accuracy: every reported percentile within the 0.4 % of the exact one that the
// header promises (half of a 1/128 sub-bucket is at most 1/256 = 0.39 % of its value).
#include "stats/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace nasperf {
namespace {

double ExactPercentile(std::vector<uint64_t> values, double fraction) {
  std::sort(values.begin(), values.end());
  size_t rank = static_cast<size_t>(std::ceil(fraction * values.size()));
  rank = std::clamp<size_t>(rank, 1, values.size());
  return static_cast<double>(values[rank - 1]);
}

void ExpectAccurate(const std::vector<uint64_t>& values, const char* what) {
  LatencyHistogram h;
  for (uint64_t v : values) h.Record(v);
  for (double f : {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    double exact = ExactPercentile(values, f);
    double got = h.Percentile(f);
    EXPECT_LE(std::fabs(got - exact), exact * 0.004 + 0.5) << what << " p" << f * 100 << " exact " << exact;
  }
  EXPECT_EQ(h.count(), values.size());
  EXPECT_EQ(h.max_ns(), *std::max_element(values.begin(), values.end()));
  double mean = 0;
  for (uint64_t v : values) mean += static_cast<double>(v);
  EXPECT_NEAR(h.mean_ns(), mean / values.size(), 1e-6 * mean / values.size());
}

TEST(LatencyHistogram, AccurateOnUniformLogNormalAndBimodal) {
  std::mt19937_64 rng(1);
  std::vector<uint64_t> uniform, lognormal, bimodal;
  std::uniform_int_distribution<uint64_t> u(1, 5'000'000);
  std::lognormal_distribution<double> ln(std::log(80'000.0), 1.2);
  std::normal_distribution<double> fast(20'000, 2'000), slow(8'000'000, 500'000);
  for (int i = 0; i < 200'000; ++i) {
    uniform.push_back(u(rng));
    lognormal.push_back(static_cast<uint64_t>(std::max(1.0, ln(rng))));
    bimodal.push_back(static_cast<uint64_t>(std::max(1.0, i % 10 == 0 ? slow(rng) : fast(rng))));
  }
  ExpectAccurate(uniform, "uniform");
  ExpectAccurate(lognormal, "lognormal");
  ExpectAccurate(bimodal, "bimodal");
}

TEST(LatencyHistogram, ExactBelow128AndAtPowersOfTwo) {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 255ull, 256ull, 1ull << 20, (1ull << 40) + 12345}) {
    size_t i = LatencyHistogram::BucketIndex(v);
    EXPECT_LE(LatencyHistogram::BucketLow(i), v);
    EXPECT_GT(LatencyHistogram::BucketLow(i) + LatencyHistogram::BucketWidth(i), v);
    EXPECT_LE(static_cast<double>(LatencyHistogram::BucketWidth(i)), std::max(1.0, v / 128.0));
  }
}

TEST(LatencyHistogram, HugeValuesLandInTheTopBucket) {
  LatencyHistogram h;
  h.Record(UINT64_MAX / 2);
  EXPECT_EQ(LatencyHistogram::BucketIndex(UINT64_MAX / 2), LatencyHistogram::kBucketCount - 1);
  EXPECT_EQ(h.max_ns(), UINT64_MAX / 2);
}

TEST(LatencyHistogram, MergeEqualsRecordingEverything) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 1; v < 100000; v += 7) {
    (v % 3 ? a : b).Record(v);
    all.Record(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max_ns(), all.max_ns());
  EXPECT_EQ(a.min_ns(), all.min_ns());
  for (double f : {0.5, 0.9, 0.99}) EXPECT_DOUBLE_EQ(a.Percentile(f), all.Percentile(f));
  EXPECT_EQ(a.NonEmptyBuckets(), all.NonEmptyBuckets());
}

TEST(LatencyHistogram, SerializeRoundTripsAndRejectsGarbage) {
  LatencyHistogram h;
  for (uint64_t v = 1; v < 5'000'000; v = v * 3 + 1) h.Record(v);
  LatencyHistogram back;
  ASSERT_TRUE(LatencyHistogram::Deserialize(h.Serialize(), &back));
  EXPECT_EQ(back.count(), h.count());
  EXPECT_EQ(back.max_ns(), h.max_ns());
  EXPECT_DOUBLE_EQ(back.mean_ns(), h.mean_ns());
  for (double f : {0.5, 0.99, 0.999}) EXPECT_DOUBLE_EQ(back.Percentile(f), h.Percentile(f));
  std::string bytes = h.Serialize();
  EXPECT_FALSE(LatencyHistogram::Deserialize("", &back));
  EXPECT_FALSE(LatencyHistogram::Deserialize(bytes.substr(0, bytes.size() - 3), &back));
  bytes[0] = 9;
  EXPECT_FALSE(LatencyHistogram::Deserialize(bytes, &back));
}

TEST(LatencyHistogram, EmptyReportsZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.Percentile(0.5), 0.0);
  EXPECT_EQ(h.max_ns(), 0u);
  EXPECT_EQ(h.mean_ns(), 0.0);
}

}  // namespace
}  // namespace nasperf
