// Compare's verdicts: the mean of the repeats is shown (the statistic its interval is
// about), and Welch's t on the repeats of every metric decides "significant".
#include <gtest/gtest.h>

#include "report/compare.h"
#include "testing/compare_rows.h"

namespace nasperf {
namespace {

// A read run repeated with these MB/s; IOPS and mean latency follow from them (1 MiB
// blocks: iops = MB/s / 1.048576; latency = 1e6 / iops at qd 1). The run's own figures
// are those of the lower-median repeat, as RunRepeated stores them.
RunResult Repeated(const std::vector<double>& mb_per_s) {
  RunResult r;
  r.engine = "psync";
  r.target = "/mnt/nas";
  r.job.rw = AccessPattern::kRead;
  r.job.bs = 1 << 20;
  for (double v : mb_per_s) {
    RepeatFigures f;
    f.read_mb_per_s = v;
    f.read_iops = v / 1.048576;
    f.read_lat_mean_us = 1e6 / f.read_iops;
    f.read_lat_p99_us = 2 * f.read_lat_mean_us;
    f.seconds = 1;
    r.repeats.push_back(f);
  }
  std::vector<double> sorted = mb_per_s;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[(sorted.size() - 1) / 2];
  r.read = DirectionResult{1, 1, 1, median, median / 1.048576, {1e6 * 1.048576 / median}, 0, nullptr};
  return r;
}

using testing::FindRow;

TEST(CompareSignificance, ShowsTheMeanOfTheRepeatsNotTheMedianRun) {
  // Repeats 100, 100, 130: the lower-median run says 100, the mean is 110.
  Comparison cmp = Compare({{"#1", {Repeated({100, 100, 130})}}, {"#2", {Repeated({100, 100, 130})}}});
  const CompareRow* mb = FindRow(cmp, "read MB/s");
  ASSERT_NE(mb, nullptr);
  EXPECT_DOUBLE_EQ(mb->cells[0].value, 110);
  ASSERT_TRUE(mb->cells[0].ci95);
  EXPECT_DOUBLE_EQ((mb->cells[0].ci95->low + mb->cells[0].ci95->high) / 2, 110) << "the interval is of the mean";
  EXPECT_EQ(mb->cells[0].repeats.size(), 3u);
}

TEST(CompareSignificance, WelchOnEveryMetricOfTheRepeats) {
  // MB/s {100,102,98} vs {110,111,109,112}: Welch t = -7.9373, df = 3.2347, p = 0.003161
  // (stats/welch_test.cpp). IOPS are the same figures / 1.048576, so the same t and p.
  Comparison cmp = Compare({{"#1", {Repeated({100, 102, 98})}}, {"#2", {Repeated({110, 111, 109, 112})}}});
  for (const char* label : {"read MB/s", "read IOPS", "read mean latency", "read p99 latency"}) {
    SCOPED_TRACE(label);
    const CompareRow* row = FindRow(cmp, label);
    ASSERT_NE(row, nullptr);
    const CompareCell& cell = row->cells[1];
    ASSERT_TRUE(cell.welch) << "every metric shown is judged";
    EXPECT_EQ(cell.significance, "significant");
    EXPECT_FALSE(row->cells[0].welch) << "the first column is what the others are judged against";
  }
  const CompareCell& mb = FindRow(cmp, "read MB/s")->cells[1];
  EXPECT_NEAR(mb.welch->t, 7.9373, 1e-4);  // column minus first
  EXPECT_NEAR(mb.welch->dof, 3.2347, 1e-4);
  EXPECT_NEAR(mb.welch->p, 0.003161, 1e-6);
  EXPECT_NEAR(FindRow(cmp, "read IOPS")->cells[1].welch->p, 0.003161, 1e-6);
  EXPECT_DOUBLE_EQ(mb.value, 110.5);

  const std::string table = ComparisonTable(cmp);
  EXPECT_NE(table.find("110.50 ±"), std::string::npos) << table;
  EXPECT_NE(table.find("significant (p=0.003)"), std::string::npos) << table;
  EXPECT_NE(table.find("mean of N repeats ± half-width of its 95 % CI"), std::string::npos) << table;
  EXPECT_NE(table.find("Welch's t-test"), std::string::npos) << table;
  EXPECT_EQ(table.find("within noise"), std::string::npos) << table;

  nlohmann::ordered_json j = ComparisonToJson(cmp);
  const nlohmann::ordered_json& cell = j["rows"][0]["cells"][1];
  EXPECT_EQ(cell["significance"], "significant");
  EXPECT_NEAR(cell["p_value"].get<double>(), 0.003161, 1e-6);
  EXPECT_EQ(cell["statistic"], "mean of repeats");
  EXPECT_EQ(cell["n"], 4);
  EXPECT_TRUE(cell.contains("ci95_mb_per_s"));
}

TEST(CompareSignificance, OverlapIsNotTheTest) {
  // {1..5} vs {2,4,..,10}: the 95 % intervals of the means overlap (1.04-4.96 and
  // 2.07-9.93), and Welch gives p = 0.1075 (scipy): not significant. The old rule called
  // this "within noise" too, but for the wrong reason; the next case tells them apart.
  Comparison wide = Compare({{"#1", {Repeated({1, 2, 3, 4, 5})}}, {"#2", {Repeated({2, 4, 6, 8, 10})}}});
  const CompareCell& w = FindRow(wide, "read MB/s")->cells[1];
  EXPECT_EQ(w.significance, "not significant");
  EXPECT_NEAR(w.welch->p, 0.1075, 1e-4);
  EXPECT_NE(ComparisonTable(wide).find("not significant (p=0.108, n=5)"), std::string::npos) << ComparisonTable(wide);
  // {10,11,12,13,14} vs {12.5,13.5,14.5,15.5,16.5}: the intervals overlap (10.04-13.96 and
  // 12.54-16.46), yet t = -2.5, df = 8, p = 0.0369 (hand: se^2 = 0.5 + 0.5; p from the t
  // table, t(0.975, 8) = 2.306 < 2.5 < t(0.99, 8) = 2.896): significant.
  Comparison close =
      Compare({{"#1", {Repeated({10, 11, 12, 13, 14})}}, {"#2", {Repeated({12.5, 13.5, 14.5, 15.5, 16.5})}}});
  const CompareCell& c0 = FindRow(close, "read MB/s")->cells[0];
  const CompareCell& c1 = FindRow(close, "read MB/s")->cells[1];
  ASSERT_TRUE(c0.ci95 && c1.ci95);
  EXPECT_TRUE(c0.ci95->Overlaps(*c1.ci95));
  EXPECT_EQ(c1.significance, "significant");
  EXPECT_NEAR(c1.welch->p, 0.0369, 1e-4);
}

TEST(CompareSignificance, TwoRepeatsThatAgreeAreNotSignificantAndSayHowFew) {
  // 500.1, 499.7 vs 500.4, 498.9: p = 0.7963 (stats/welch_test.cpp).
  Comparison cmp = Compare({{"#1", {Repeated({500.1, 499.7})}}, {"#2", {Repeated({500.4, 498.9})}}});
  EXPECT_EQ(FindRow(cmp, "read MB/s")->cells[1].significance, "not significant");
  EXPECT_NE(ComparisonTable(cmp).find("not significant (p=0.796, n=2)"), std::string::npos) << ComparisonTable(cmp);
}

TEST(CompareSignificance, NoVerdictWithoutRepeatsOnBothSides) {
  RunResult single = Repeated({100});
  single.repeats.clear();
  Comparison cmp = Compare({{"#1", {single}}, {"#2", {Repeated({110, 111, 109})}}});
  const CompareRow* mb = FindRow(cmp, "read MB/s");
  EXPECT_DOUBLE_EQ(mb->cells[0].value, 100) << "a single run shows its own figure";
  EXPECT_FALSE(mb->cells[1].welch);
  EXPECT_EQ(mb->cells[1].significance, "");
  EXPECT_EQ(ComparisonToJson(cmp)["rows"][0]["cells"][0]["statistic"], "run");
}

TEST(CompareSignificance, RepeatsStoredAsTotalsOnlyLeaveIopsAndLatencyUnjudged) {
  // Schema 1 and 2 kept each repeat's total MB/s only: IOPS and latencies read 0 in every
  // repeat, which are not figures; the run's own then stand, without a verdict.
  RunResult old_a = Repeated({100, 102, 98}), old_b = Repeated({110, 111, 109});
  for (RunResult* r : {&old_a, &old_b})
    for (RepeatFigures& f : r->repeats) f.read_iops = f.read_lat_mean_us = f.read_lat_p99_us = 0;
  Comparison cmp = Compare({{"#1", {old_a}}, {"#2", {old_b}}});
  EXPECT_EQ(FindRow(cmp, "read MB/s")->cells[1].significance, "significant");
  const CompareRow* iops = FindRow(cmp, "read IOPS");
  EXPECT_FALSE(iops->cells[1].welch);
  EXPECT_DOUBLE_EQ(iops->cells[1].value, 110 / 1.048576);
}

}  // namespace
}  // namespace nasperf
