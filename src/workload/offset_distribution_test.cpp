// Tests that each --dist draws what it promises: uniform's buckets pass chi-square, zipf's
// rank-frequency slope is -THETA, pareto:H and hotspot put their share where they say.
// Fixed seeds: every figure here is the same on every run.
#include "workload/offset_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace nasperf {
namespace {

std::vector<uint64_t> Counts(uint64_t n, uint64_t draws, const std::function<uint64_t()>& draw) {
  std::vector<uint64_t> counts(n, 0);
  for (uint64_t i = 0; i < draws; ++i) {
    const uint64_t at = draw();
    EXPECT_LT(at, n);
    if (at < n) ++counts[at];
  }
  return counts;
}

// Least-squares slope of log(count) against log(rank + 1) over ranks [0, ranks).
double RankFrequencySlope(const std::vector<uint64_t>& counts, size_t ranks) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t k = 0; k < ranks; ++k) {
    const double x = std::log(static_cast<double>(k + 1)), y = std::log(static_cast<double>(counts[k]));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double n = static_cast<double>(ranks);
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

double ShareBelow(const std::vector<uint64_t>& counts, uint64_t limit) {
  uint64_t below = 0, all = 0;
  for (size_t i = 0; i < counts.size(); ++i) (i < limit ? below : all) += counts[i];
  return static_cast<double>(below) / static_cast<double>(below + all);
}

TEST(OffsetDistribution, UniformBucketsPassChiSquare) {
  // Half a pass of a 100,000-position permutation into 50 buckets. The 0.1 % critical
  // value of chi-square with 49 degrees of freedom is 85.35.
  const uint64_t n = 100000, draws = 50000, buckets = 50;
  RandomPositions positions(OffsetDistribution{}, n, 1234);
  std::vector<uint64_t> counts(buckets, 0);
  for (uint64_t i = 0; i < draws; ++i) ++counts[positions.Next() * buckets / n];
  const double expected = static_cast<double>(draws) / buckets;
  double chi2 = 0;
  for (uint64_t c : counts) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 85.35);
}

TEST(OffsetDistribution, UniformVisitsEveryPositionOncePerPass) {
  const uint64_t n = 4099;
  RandomPositions positions(OffsetDistribution{}, n, 99);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<bool> seen(n, false);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t at = positions.Next();
      ASSERT_LT(at, n);
      ASSERT_FALSE(seen[at]) << "pass " << pass << ": position " << at << " twice";
      seen[at] = true;
    }
  }
}

TEST(OffsetDistribution, ZipfRankFrequencySlopeIsMinusTheta) {
  for (double theta : {0.8, 1.0, 1.2, 2.0}) {
    ZipfRanks zipf(1000, theta);
    FastRandom random(7);
    std::vector<uint64_t> counts = Counts(1000, 2000000, [&] { return zipf.Draw(random); });
    // The first 20 ranks hold enough draws (> 1,000 each at theta 2) for a steady slope.
    EXPECT_NEAR(RankFrequencySlope(counts, 20), -theta, 0.03) << "theta " << theta;
    // And the hottest rank's share is its weight over the sum of all weights.
    double weights = 0;
    for (int k = 1; k <= 1000; ++k) weights += std::pow(k, -theta);
    EXPECT_NEAR(static_cast<double>(counts[0]) / 2000000, 1 / weights, 0.003) << "theta " << theta;
  }
}

TEST(OffsetDistribution, ZipfPositionsAreScatteredButKeepTheSlope) {
  // Through RandomPositions the hot ranks land all over the region: the busiest positions,
  // sorted by count, still fall off as rank^-theta, and the hottest is not position 0.
  OffsetDistribution dist{OffsetDistribution::Kind::kZipf, 1.2, 0, 0};
  RandomPositions positions(dist, 1000, 5);
  std::vector<uint64_t> counts = Counts(1000, 2000000, [&] { return positions.Next(); });
  const uint64_t hottest = static_cast<uint64_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  EXPECT_NE(hottest, 0u);
  std::sort(counts.begin(), counts.end(), std::greater<>());
  EXPECT_NEAR(RankFrequencySlope(counts, 20), -1.2, 0.03);
}

TEST(OffsetDistribution, ParetoPutsOneMinusHOfTheDrawsOnTheHottestH) {
  for (double h : {0.2, 0.1, 0.4}) {
    ParetoRanks pareto(10000, h);
    FastRandom random(11);
    std::vector<uint64_t> counts = Counts(10000, 1000000, [&] { return pareto.Draw(random); });
    EXPECT_NEAR(ShareBelow(counts, static_cast<uint64_t>(h * 10000)), 1 - h, 0.01) << "pareto:" << h;
    // Self-similar: the hottest h of the hottest h take 1 - h of those draws again.
    const double inner = ShareBelow(counts, static_cast<uint64_t>(h * h * 10000));
    EXPECT_NEAR(inner / ShareBelow(counts, static_cast<uint64_t>(h * 10000)), 1 - h, 0.01) << "pareto:" << h;
  }
}

TEST(OffsetDistribution, ParetoPositionsHoldTheShareWhereverTheyLand) {
  OffsetDistribution dist{OffsetDistribution::Kind::kPareto, 0.2, 0, 0};
  RandomPositions positions(dist, 10000, 3);
  std::vector<uint64_t> counts = Counts(10000, 1000000, [&] { return positions.Next(); });
  EXPECT_LT(ShareBelow(counts, 2000), 0.5);  // scattered: the first 20 % is not the hot set
  std::sort(counts.begin(), counts.end(), std::greater<>());
  EXPECT_NEAR(ShareBelow(counts, 2000), 0.8, 0.01);
}

TEST(OffsetDistribution, HotspotPutsAccessShareInTheFirstRegion) {
  for (auto [access, region] : {std::pair{80.0, 20.0}, std::pair{95.0, 5.0}, std::pair{50.0, 50.0}}) {
    OffsetDistribution dist{OffsetDistribution::Kind::kHotspot, 0, access, region};
    RandomPositions positions(dist, 1000, 17);
    std::vector<uint64_t> counts = Counts(1000, 1000000, [&] { return positions.Next(); });
    EXPECT_NEAR(ShareBelow(counts, static_cast<uint64_t>(region * 10)) * 100, access, 1.0)
        << "hotspot:" << access << "/" << region;
    // Inside each part, uniform: no position of the cold part has more than twice its fair share.
    const double cold_fair = (100 - access) / 100 * 1e6 / (1000 - region * 10);
    for (size_t i = static_cast<size_t>(region * 10); i < 1000; ++i) ASSERT_LT(counts[i], 2 * cold_fair);
  }
}

TEST(OffsetDistribution, DrawsStayInsideTinyRanges) {
  FastRandom random(1);
  ZipfRanks zipf1(1, 1.5);
  ParetoRanks pareto1(1, 0.3);
  HotspotPositions hot2(2, 80, 20);
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(zipf1.Draw(random), 0u);
    ASSERT_EQ(pareto1.Draw(random), 0u);
    ASSERT_LT(hot2.Draw(random), 2u);
  }
}

}  // namespace
}  // namespace nasperf
