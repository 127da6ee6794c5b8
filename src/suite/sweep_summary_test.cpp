// Tests of the sweep summary's JSON: knees and outliers are stored and read back, and
// summaries stored before they existed still load.
#include "suite/sweep_summary.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

SweepSummary TwoKneeSummary() {
  SweepSummary s;
  s.target = "/mnt/nas";
  s.sizes = {64 << 10, 128 << 10};
  s.records = {64 << 10};
  s.tests = {"read"};
  s.ram.client_bytes = 64ull << 20;
  s.ram.nas_bytes = 1ull << 30;
  SweepCurve c;
  c.test = "read";
  c.record_bytes = 64 << 10;
  c.analysis.knee_bytes = 2ull << 30;
  c.analysis.knees = {{128ull << 20, 2000, 110, "client RAM"}, {2ull << 30, 110, 40, "NAS RAM"}};
  c.analysis.outliers = {256 << 10};
  c.analysis.verdict = "knee at 2 GiB";
  s.curves.push_back(c);
  return s;
}

TEST(SweepSummaryJson, KneesAndOutliersRoundTrip) {
  nlohmann::ordered_json j = SweepToJson(TwoKneeSummary());
  const nlohmann::ordered_json& curve = j["curves"][0];
  ASSERT_EQ(curve["knees"].size(), 2u) << curve.dump(2);
  EXPECT_EQ(curve["knees"][0]["file_bytes"], 128ull << 20);
  EXPECT_EQ(curve["knees"][0]["ram"], "client RAM");
  EXPECT_EQ(curve["knees"][1]["after_mb_per_s"], 40.0);
  EXPECT_EQ(curve["outliers_bytes"], nlohmann::ordered_json::array({256 << 10}));

  Result<SweepSummary> back = SweepFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const CurveAnalysis& a = back.value().curves[0].analysis;
  ASSERT_EQ(a.knees.size(), 2u);
  EXPECT_EQ(a.knees[1].file_bytes, 2ull << 30);
  EXPECT_EQ(a.knees[1].ram, "NAS RAM");
  EXPECT_DOUBLE_EQ(a.knees[0].before_mb_per_s, 2000);
  EXPECT_EQ(a.outliers, std::vector<uint64_t>{256 << 10});
}

TEST(SweepSummaryJson, OlderSummariesWithoutKneesStillLoad) {
  nlohmann::ordered_json j = SweepToJson(TwoKneeSummary());
  j["curves"][0].erase("knees");
  j["curves"][0].erase("outliers_bytes");
  Result<SweepSummary> back = SweepFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back.value().curves[0].analysis.knees.empty());
  EXPECT_TRUE(back.value().curves[0].analysis.outliers.empty());
  EXPECT_EQ(back.value().curves[0].analysis.knee_bytes, 2ull << 30);
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

// `sweep --direct` on an NFS mount: the summary's RAM has no client cache (O_DIRECT
// skipped it) but the NAS's; the curve's knee at the NAS's RAM is found, not written off
// as "direct I/O bypasses the page cache".
TEST(SweepSummaryCurves, DirectOnANetworkFileSystemStillHasTheNasKnee) {
  SweepSummary s;
  s.direct = true;
  s.records = {1 << 20};
  s.tests = {"read"};
  s.ram = CacheRam{16ull << 30, 256ull << 20, false, /*client_caches=*/false};
  std::vector<RunResult> points;
  uint64_t size = 32ull << 20;
  for (double rate : {900.0, 910.0, 905.0, 895.0, 110.0, 112.0, 111.0}) {  // 32 MiB .. 2 GiB
    RunResult p;
    p.test = "read";
    p.job.rw = AccessPattern::kRead;
    p.job.bs = 1 << 20;
    p.job.size = size;
    p.job.direct = true;
    p.read = DirectionResult{1, 1, 1, rate, rate, {}, 0, nullptr};
    p.cached = size <= (256ull << 20);
    points.push_back(p);
    size *= 2;
  }
  std::vector<SweepCurve> curves = AnalyseCurves(points, s);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].analysis.knee_bytes, 512ull << 20) << curves[0].analysis.verdict;
  EXPECT_EQ(curves[0].analysis.verdict.find("direct I/O bypasses"), std::string::npos) << curves[0].analysis.verdict;

  // The same curve on a local disk under O_DIRECT has no cache knee.
  s.ram.client_caches = true;
  EXPECT_FALSE(AnalyseCurves(points, s)[0].analysis.knee_bytes);
}

}  // namespace
}  // namespace nasperf
