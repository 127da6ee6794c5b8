// Tests for the cache-knee analysis on synthetic sweep curves.
#include "suite/cache_analysis.h"
#include "testing/sizes.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using testing::kKiB;
using testing::kMiB;
using testing::kGiB;

// One point per rate, file sizes doubling from 64 KiB; a point is cached when its
// file fits in `ram`, as the sweep command marks it.
std::vector<CurvePoint> Curve(const std::vector<double>& rates, const CacheRam& ram) {
  std::vector<CurvePoint> points;
  uint64_t size = 64 * kKiB;
  for (double rate : rates) {
    points.push_back({size, rate, size <= ram.total()});
    size *= 2;
  }
  return points;
}

// Deterministic noise of up to +-`amplitude` (a fraction) on point `i`.
double Noisy(double rate, int i, double amplitude) {
  static const double kPattern[] = {1.0, -0.6, 0.3, -1.0, 0.7, -0.2, 0.9, -0.8};
  return rate * (1 + amplitude * kPattern[i % 8]);
}

// 64 KiB..4 GiB: `high` up to 256 MiB (13 points), `low` from 512 MiB (4 points).
std::vector<double> Step(double high, double low) {
  std::vector<double> rates(13, high);
  rates.insert(rates.end(), 4, low);
  return rates;
}

const CacheRam kSmallRam{1536 * kMiB, 256 * kMiB};   // 1.75 GiB: the knee at 512 MiB is not well below it
const CacheRam kBigRam{24000 * kMiB, std::nullopt};  // "23.4 GiB"

TEST(CacheAnalysis, FlatCurveAcrossRamHasNoKnee) {
  std::vector<double> rates;
  for (int i = 0; i < 17; ++i) rates.push_back(Noisy(500, i, 0.05));
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_FALSE(a.knee_bytes);
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 500, 25);
  EXPECT_NEAR(*a.uncached_mb_per_s, 500, 25);
  EXPECT_EQ(a.verdict, "no knee: throughput is flat within 25 % from 64 KiB to 4 GiB");
}

TEST(CacheAnalysis, FlatCurveAllCachedAsksForLargerFiles) {
  std::vector<double> rates;
  for (int i = 0; i < 17; ++i) rates.push_back(Noisy(3000, i, 0.05));
  CurveAnalysis a = AnalyseCurve(Curve(rates, kBigRam), kBigRam, false);
  EXPECT_FALSE(a.knee_bytes);
  ASSERT_TRUE(a.cached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 3000, 150);
  EXPECT_FALSE(a.uncached_mb_per_s);
  EXPECT_NE(a.verdict.find("fits in RAM (23.4 GiB)"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("raise --max"), std::string::npos) << a.verdict;
}

TEST(CacheAnalysis, CleanKnee) {
  CurveAnalysis a = AnalyseCurve(Curve(Step(2000, 31), kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 2000, 1e-9);
  EXPECT_NEAR(*a.uncached_mb_per_s, 31, 1e-9);
  EXPECT_EQ(a.verdict, "knee at 512 MiB; client RAM 1.5 GiB; NAS RAM 256 MiB; this curve is cache-bound below it");
}

// A share (smb://, nfs://): this machine's RAM caches nothing, so only the NAS's counts,
// in the total, the cached marks and the verdict.
TEST(CacheAnalysis, ShareKneeNamesTheNasRamOnly) {
  CacheRam share{24000 * kMiB, 256 * kMiB, false, false};
  EXPECT_EQ(share.total(), 256 * kMiB);
  EXPECT_EQ(share.Text(", "), "no client cache, NAS RAM 256 MiB");
  CurveAnalysis a = AnalyseCurve(Curve(Step(2000, 31), share), share, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  EXPECT_EQ(a.verdict, "knee at 512 MiB; no client cache; NAS RAM 256 MiB; this curve is cache-bound below it");
}

TEST(CacheAnalysis, NoisyKneeWithTransitionalPoint) {
  std::vector<double> rates;
  for (int i = 0; i < 12; ++i) rates.push_back(Noisy(2000, i, 0.10));
  rates.push_back(31 + 0.4 * (2000 - 31));  // 256 MiB: partly cached, below the midpoint
  for (int i = 0; i < 4; ++i) rates.push_back(Noisy(31, i, 0.10));
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 256 * kMiB);
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 2000, 200);
  EXPECT_NEAR(*a.uncached_mb_per_s, 31, 3.1);
  EXPECT_NE(a.verdict.find("knee at 256 MiB"), std::string::npos) << a.verdict;
}

TEST(CacheAnalysis, TwoStepsKneeIsTheLastStep) {
  std::vector<double> rates(5, 1000);
  rates.insert(rates.end(), 5, 600);
  rates.insert(rates.end(), 5, 100);
  CurveAnalysis a = AnalyseCurve(Curve(rates, kBigRam), kBigRam, false);
  EXPECT_EQ(a.knee_bytes, 64 * kMiB);  // the 11th point: 64 KiB * 2^10
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 800, 1e-9);
  EXPECT_NEAR(*a.uncached_mb_per_s, 100, 1e-9);
  EXPECT_NE(a.verdict.find("knee at 64 MiB"), std::string::npos) << a.verdict;
}

TEST(CacheAnalysis, SmallFileRampUpIsNotTheKnee) {
  std::vector<double> rates = Step(2000, 31);
  rates[0] = 300;
  rates[1] = 800;
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 2000, 1e-9);
  EXPECT_NEAR(*a.uncached_mb_per_s, 31, 1e-9);
}

TEST(CacheAnalysis, RampUpWithoutFallIsNoKnee) {
  std::vector<double> rates(17, 2000);
  rates[0] = 300;
  rates[1] = 800;
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_FALSE(a.knee_bytes);
  EXPECT_NE(a.verdict.find("rises"), std::string::npos) << a.verdict;
}

TEST(CacheAnalysis, DirectIoHasNoKnee) {
  CurveAnalysis a = AnalyseCurve(Curve(Step(2000, 31), kSmallRam), kSmallRam, true);
  EXPECT_FALSE(a.knee_bytes);
  EXPECT_FALSE(a.cached_mb_per_s);
  ASSERT_TRUE(a.uncached_mb_per_s);
  EXPECT_NEAR(*a.uncached_mb_per_s, 2000, 1e-9);  // 13 of 17 points at 2000
  EXPECT_NE(a.verdict.find("direct I/O bypasses the page cache"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("not a page-cache effect"), std::string::npos) << a.verdict;

  CurveAnalysis flat = AnalyseCurve(Curve({400, 410, 390, 405}, kSmallRam), kSmallRam, true);
  EXPECT_FALSE(flat.knee_bytes);
  ASSERT_TRUE(flat.uncached_mb_per_s);
  EXPECT_NEAR(*flat.uncached_mb_per_s, 402.5, 1e-9);
  EXPECT_EQ(flat.verdict.find("not a page-cache effect"), std::string::npos) << flat.verdict;
}

TEST(CacheAnalysis, TooFewPoints) {
  std::vector<CurvePoint> points = {{kGiB, 2000, true}, {8 * kGiB, 31, false}};
  CurveAnalysis a = AnalyseCurve(points, kSmallRam, false);
  EXPECT_FALSE(a.knee_bytes);
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 2000, 1e-9);
  EXPECT_NEAR(*a.uncached_mb_per_s, 31, 1e-9);
  EXPECT_EQ(a.verdict, "too few points (2) to find a knee");

  CurveAnalysis none = AnalyseCurve({}, kSmallRam, false);
  EXPECT_FALSE(none.knee_bytes);
  EXPECT_FALSE(none.cached_mb_per_s);
  EXPECT_FALSE(none.uncached_mb_per_s);
}

TEST(CacheAnalysis, ZeroThroughputPointsAreSkipped) {
  std::vector<double> rates = Step(2000, 31);
  rates[5] = 0;   // a failed point inside the cached plateau must not pose as the knee
  rates[15] = 0;  // nor split the uncached one
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  ASSERT_TRUE(a.cached_mb_per_s && a.uncached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 2000, 1e-9);
  EXPECT_NEAR(*a.uncached_mb_per_s, 31, 1e-9);

  for (bool direct : {false, true}) {
    CurveAnalysis zero = AnalyseCurve(Curve(std::vector<double>(6, 0), kSmallRam), kSmallRam, direct);
    EXPECT_FALSE(zero.knee_bytes);
    EXPECT_FALSE(zero.cached_mb_per_s);
    EXPECT_FALSE(zero.uncached_mb_per_s);
    EXPECT_FALSE(zero.verdict.empty());
  }
}

TEST(CacheAnalysis, KneeWellBelowRamNamesTheSmallerCache) {
  CurveAnalysis a = AnalyseCurve(Curve(Step(2000, 31), kBigRam), kBigRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  EXPECT_NE(a.verdict.find("knee at 512 MiB; client RAM 23.4 GiB; this curve is cache-bound below it"),
            std::string::npos)
      << a.verdict;
  EXPECT_NE(a.verdict.find("dirty-page limit"), std::string::npos) << a.verdict;

  CurveAnalysis near = AnalyseCurve(Curve(Step(2000, 31), kSmallRam), kSmallRam, false);
  EXPECT_EQ(near.verdict.find("dirty-page"), std::string::npos) << near.verdict;
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

// Cold reads after verified drops: no point was cacheable, so a fall is the device's noise.
TEST(CacheAnalysis, NoCacheablePointHasNoCacheKnee) {
  std::vector<CurvePoint> points;
  uint64_t size = 64 << 10;
  for (double rate : {600.0, 650.0, 620.0, 640.0, 90.0, 95.0, 92.0}) {
    points.push_back({size, rate, false});
    size *= 2;
  }
  CacheRam ram{24000ull << 20, std::nullopt};
  CurveAnalysis local = AnalyseCurve(points, ram, false);
  EXPECT_FALSE(local.knee_bytes);
  EXPECT_NE(local.verdict.find("verified drop"), std::string::npos) << local.verdict;

  // On a network share whose server RAM is unknown the same fall may be the server's cache.
  ram.server_cache_unknown = true;
  CurveAnalysis share = AnalyseCurve(points, ram, false);
  ASSERT_TRUE(share.knee_bytes);
  EXPECT_EQ(*share.knee_bytes, uint64_t{1} << 20);
}

TEST(CacheAnalysis, OneSlowLargestFileIsNotAPlateau) {
  std::vector<CurvePoint> points;
  uint64_t size = 64 << 10;
  for (double rate : {2000.0, 2100.0, 1950.0, 2050.0, 300.0}) {
    points.push_back({size, rate, true});
    size *= 2;
  }
  CurveAnalysis a = AnalyseCurve(points, CacheRam{24000ull << 20, std::nullopt}, false);
  EXPECT_FALSE(a.knee_bytes);
  EXPECT_NE(a.verdict.find("one point is not a plateau"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("only the largest file is slower"), std::string::npos) << a.verdict;

  // A dip just before the end: the last point is not slower, so the sentence must not say it is.
  points[3].mb_per_s = 300;
  points[4].mb_per_s = 2000;
  CurveAnalysis dip = AnalyseCurve(points, CacheRam{24000ull << 20, std::nullopt}, false);
  EXPECT_FALSE(dip.knee_bytes);
  EXPECT_EQ(dip.verdict.find("slower"), std::string::npos) << dip.verdict;
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

// The curve: one slow file on the cached plateau (2000, 2000, 900, 2000, ..., 31,
// 31) is an outlier at its size, not the knee.
TEST(CacheKnee, ALoneDipIsAnOutlierNotTheKnee) {
  std::vector<double> rates = Step(2000, 31);
  rates[2] = 900;  // 256 KiB
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  EXPECT_EQ(a.outliers, std::vector<uint64_t>{256 * kKiB});
  ASSERT_TRUE(a.cached_mb_per_s);
  EXPECT_NEAR(*a.cached_mb_per_s, 2000, 1e-9) << "the dip is left out of the plateau";
}

// Two slow files in a row that the curve recovers from: the knee is where the curve
// stays below, and the dip's points are outliers.
TEST(CacheKnee, TheKneeIsWhereTheCurveStaysBelow) {
  std::vector<double> rates = Step(2000, 31);
  rates[4] = rates[5] = 900;  // 1 MiB, 2 MiB
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  EXPECT_EQ(a.outliers, (std::vector<uint64_t>{1 * kMiB, 2 * kMiB}));
  ASSERT_EQ(a.knees.size(), 1u);
  EXPECT_NEAR(a.knees[0].before_mb_per_s, 2000, 1e-9);
  EXPECT_NEAR(a.knees[0].after_mb_per_s, 31, 1e-9);
}

// A lone fast file on the uncached plateau (a stray cache hit) neither ends the plateau
// nor moves the knee.
TEST(CacheKnee, ALoneSpikeOnTheUncachedPlateauIsAnOutlier) {
  std::vector<double> rates = Step(2000, 31);
  rates[15] = 2000;  // 2 GiB, between two 31s
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  EXPECT_EQ(a.outliers, std::vector<uint64_t>{2 * kGiB});
}

TEST(CacheKnee, NoisyPlateausWithADip) {
  std::vector<double> rates;
  for (int i = 0; i < 13; ++i) rates.push_back(Noisy(2000, i, 0.10));
  for (int i = 0; i < 4; ++i) rates.push_back(Noisy(31, i, 0.10));
  rates[7] = 700;  // 8 MiB
  CurveAnalysis a = AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false);
  EXPECT_EQ(a.knee_bytes, 512 * kMiB);
  EXPECT_EQ(a.outliers, std::vector<uint64_t>{8 * kMiB});
  // Noise within 10 % is no outlier.
  rates[7] = Noisy(2000, 7, 0.10);
  EXPECT_TRUE(AnalyseCurve(Curve(rates, kSmallRam), kSmallRam, false).outliers.empty());
}

// A knee needs two points on each plateau: one fast small file is not a cached plateau.
TEST(CacheKnee, OnePointIsNotTheHigherPlateau) {
  std::vector<double> rates(8, 31);
  rates[0] = 2000;
  const CacheRam ram{1 * kMiB, std::nullopt};  // files past 1 MiB are uncached
  CurveAnalysis a = AnalyseCurve(Curve(rates, ram), ram, false);
  EXPECT_FALSE(a.knee_bytes);
  EXPECT_TRUE(a.knees.empty());
  EXPECT_NE(a.verdict.find("a knee needs two points or more on each plateau"), std::string::npos) << a.verdict;
}

// A share through a mounted path: files past the client's RAM (64 MiB) come from the
// NAS's RAM (1 GiB) at the link's 110 MB/s, files past that from its disks at 40 MB/s.
// Both knees are reported, each with the RAM it matches; knee_bytes is the last one,
// the fall into the uncached plateau.
TEST(CacheKnee, TwoKneesClientRamThenNasRam) {
  CacheRam ram{64 * kMiB, 1 * kGiB};
  std::vector<double> rates(11, 2000);  // 64 KiB .. 64 MiB
  rates.insert(rates.end(), 4, 110);    // 128 MiB .. 1 GiB
  rates.insert(rates.end(), 2, 40);     // 2 GiB, 4 GiB
  CurveAnalysis a = AnalyseCurve(Curve(rates, ram), ram, false);
  ASSERT_EQ(a.knees.size(), 2u);
  EXPECT_EQ(a.knees[0].file_bytes, 128 * kMiB);
  EXPECT_EQ(a.knees[0].ram, "client RAM");
  EXPECT_NEAR(a.knees[0].before_mb_per_s, 2000, 1e-9);
  EXPECT_NEAR(a.knees[0].after_mb_per_s, 110, 1e-9);
  EXPECT_EQ(a.knees[1].file_bytes, 2 * kGiB);
  EXPECT_EQ(a.knees[1].ram, "NAS RAM");
  EXPECT_NEAR(a.knees[1].before_mb_per_s, 110, 1e-9);
  EXPECT_NEAR(a.knees[1].after_mb_per_s, 40, 1e-9);
  EXPECT_EQ(a.knee_bytes, 2 * kGiB);
  ASSERT_TRUE(a.uncached_mb_per_s);
  EXPECT_NEAR(*a.uncached_mb_per_s, 40, 1e-9);
  EXPECT_NE(a.verdict.find("knee at 2 GiB"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("an earlier knee at 128 MiB (2000 -> 110 MB/s, client RAM)"), std::string::npos)
      << a.verdict;
  EXPECT_TRUE(a.outliers.empty());
}

// A knee far from both RAM sizes matches neither.
TEST(CacheKnee, AKneeFarFromEveryRamMatchesNone) {
  CurveAnalysis a = AnalyseCurve(Curve(Step(2000, 31), kBigRam), kBigRam, false);
  ASSERT_EQ(a.knees.size(), 1u);
  EXPECT_EQ(a.knees[0].ram, "");
}

}  // namespace
}  // namespace nasperf
