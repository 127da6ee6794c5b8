// Compare's sections: the per-rank breakdown of many-clients runs, per-size rows of
// block-size mixes and the pacing facts, and the plain line when columns differ in kind.
#include "report/compare_breakdown.h"

#include <gtest/gtest.h>

#include "testing/compare_rows.h"

namespace nasperf {
namespace {

DirectionResult Dir(double mb_per_s, double p99_us = 100) {
  DirectionResult d;
  d.bytes = 1000000;
  d.ios = 100;
  d.seconds = 1;
  d.mb_per_s = mb_per_s;
  d.iops = mb_per_s * 10;
  d.lat.p99_us = p99_us;
  d.lat.mean_us = p99_us / 2;
  return d;
}

RunResult Plain(int64_t id, double read_mb_per_s) {
  RunResult r;
  r.id = id;
  r.engine = "psync";
  r.target = "/mnt/nas";
  r.job.rw = AccessPattern::kRead;
  r.read = Dir(read_mb_per_s);
  return r;
}

// A many-clients run of `ranks` ranks, rank k at `base + k` MB/s; `lost` sent no result.
RunResult Cluster(int64_t id, int ranks, double base, int lost = -1) {
  RunResult r = Plain(id, 0);
  ClusterFacts f;
  f.ranks = ranks;
  f.start_skew_us = 900;
  f.window_s = 1.5;
  f.spread_pct = 25;
  f.spread_flagged = true;
  double total = 0;
  for (int k = 0; k < ranks; ++k) {
    RankResult e;
    e.rank = k;
    e.host = "client" + std::to_string(k);
    if (k == lost) {
      e.reported = false;
      e.error = "no result (the rank was killed or lost)";
    } else {
      e.read = Dir(base + k);
      total += base + k;
    }
    f.each.push_back(e);
  }
  r.read = Dir(total);
  r.cluster = f;
  return r;
}

CompareColumn Column(RunResult run) {
  CompareColumn c;
  c.heading = "#" + std::to_string(run.id) + " nas";
  c.runs.push_back(std::move(run));
  return c;
}

const CompareSection* Section(const Comparison& cmp, const std::string& prefix) {
  for (const CompareSection& s : cmp.sections)
    if (s.name.rfind(prefix, 0) == 0) return &s;
  return nullptr;
}

using testing::FindRow;

TEST(CompareRanks, SameRankCountsGiveEachRanksOwnFiguresSideBySide) {
  Comparison cmp = Compare({Column(Cluster(1, 3, 100)), Column(Cluster(2, 3, 200, 2))});
  const CompareSection* s = Section(cmp, "per rank");
  ASSERT_NE(s, nullptr);
  const CompareRow* ranks = FindRow(s->rows, "ranks");
  ASSERT_NE(ranks, nullptr);
  EXPECT_EQ(ranks->cells[0].value, 3);
  EXPECT_EQ(ranks->cells[1].value, 3);
  const CompareRow* r1 = FindRow(s->rows, "rank 1 read MB/s");
  ASSERT_NE(r1, nullptr);
  EXPECT_DOUBLE_EQ(r1->cells[0].value, 101);
  EXPECT_DOUBLE_EQ(r1->cells[1].value, 201);
  EXPECT_NEAR(r1->cells[1].pct_vs_first, (201.0 - 101) / 101 * 100, 1e-9);
  // The lost rank is named in its cell, not shown as 0 MB/s.
  const CompareRow* r2 = FindRow(s->rows, "rank 2 read MB/s");
  ASSERT_NE(r2, nullptr);
  EXPECT_TRUE(r2->cells[0].present);
  EXPECT_FALSE(r2->cells[1].present);
  EXPECT_EQ(r2->cells[1].caveat, "no result");
  ASSERT_NE(FindRow(s->rows, "spread (fastest over slowest)"), nullptr);
  const std::string table = ComparisonTable(cmp);
  EXPECT_NE(table.find("per rank (many clients):"), std::string::npos) << table;
  EXPECT_NE(table.find("no result"), std::string::npos) << table;
  EXPECT_NE(table.find("#2 rank 2: no result (the rank was killed or lost)"), std::string::npos) << table;
  EXPECT_NE(table.find("uneven ranks (spread over 10 %): #1, #2"), std::string::npos) << table;
  EXPECT_EQ(table.find("not comparable"), std::string::npos) << table;
}

TEST(CompareRanks, DifferentRankCountsSayTheBreakdownIsNotComparable) {
  Comparison cmp = Compare({Column(Cluster(1, 4, 100)), Column(Cluster(2, 2, 100))});
  const CompareSection* s = Section(cmp, "per rank");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(FindRow(s->rows, "rank 0 read MB/s"), nullptr);  // no rank lined up against another
  ASSERT_EQ(s->notes.size(), 2u);
  EXPECT_EQ(s->notes[1],
            "per-rank breakdown not comparable: #1 ran 4 ranks, #2 ran 2 ranks; only the totals above "
            "are compared");
  // The totals are still compared.
  ASSERT_FALSE(cmp.rows.empty());
  EXPECT_EQ(cmp.rows[0].label, "read MB/s");
  EXPECT_TRUE(cmp.rows[0].cells[1].present);
}

TEST(CompareRanks, ASingleClientRunBesideAManyClientsRunIsSaidPlainly) {
  Comparison cmp = Compare({Column(Plain(1, 300)), Column(Cluster(2, 4, 100))});
  const CompareSection* s = Section(cmp, "per rank");
  ASSERT_NE(s, nullptr);
  const CompareRow* ranks = FindRow(s->rows, "ranks");
  ASSERT_NE(ranks, nullptr);
  EXPECT_EQ(ranks->cells[0].caveat, "single client");
  EXPECT_EQ(ranks->cells[1].value, 4);
  const std::string table = ComparisonTable(cmp);
  EXPECT_NE(table.find("per-rank breakdown not comparable: #1 is a single client, #2 ran 4 ranks; only the totals "
                       "above are compared"),
            std::string::npos)
      << table;
  nlohmann::ordered_json j = ComparisonToJson(cmp);
  ASSERT_EQ(j["sections"].size(), 1u);
  EXPECT_EQ(j["sections"][0]["rows"][0]["cells"][0]["caveat"], "single client");
}

TEST(CompareRanks, NoManyClientsRunNoSection) {
  Comparison cmp = Compare({Column(Plain(1, 300)), Column(Plain(2, 310))});
  EXPECT_TRUE(cmp.sections.empty());
  EXPECT_EQ(ComparisonToJson(cmp)["sections"].size(), 0u);
}

RunResult Mix(int64_t id, std::vector<uint64_t> sizes, double scale) {
  RunResult r = Plain(id, 0);
  double total = 0;
  for (uint64_t bs : sizes) {
    SizeResult e;
    e.bs = bs;
    e.read = Dir(scale * static_cast<double>(bs) / 4096, static_cast<double>(bs) / 100);
    total += e.read->mb_per_s;
    r.per_size.push_back(e);
  }
  r.read = Dir(total);
  return r;
}

TEST(CompareSizes, SameMixesGivePerSizeRows) {
  Comparison cmp = Compare({Column(Mix(1, {4096, 65536}, 1)), Column(Mix(2, {4096, 65536}, 2))});
  const CompareSection* s = Section(cmp, "per size");
  ASSERT_NE(s, nullptr);
  const CompareRow* mb = FindRow(s->rows, "4 KiB read MB/s");
  ASSERT_NE(mb, nullptr) << ComparisonTable(cmp);
  EXPECT_DOUBLE_EQ(mb->cells[0].value, 1);
  EXPECT_DOUBLE_EQ(mb->cells[1].value, 2);
  EXPECT_NEAR(mb->cells[1].pct_vs_first, 100, 1e-9);
  const CompareRow* p99 = FindRow(s->rows, "64 KiB read p99 latency");
  ASSERT_NE(p99, nullptr);
  EXPECT_EQ(p99->unit, "us");
  EXPECT_DOUBLE_EQ(p99->cells[1].value, 655.36);
  EXPECT_EQ(FindRow(s->rows, "4 KiB write MB/s"), nullptr);  // no writes: no row
  EXPECT_TRUE(s->notes.empty());
}

TEST(CompareSizes, DifferentMixesGetOneClearLine) {
  Comparison cmp =
      Compare({Column(Mix(1, {4096, 65536}, 1)), Column(Mix(2, {4096, 1048576}, 1)), Column(Plain(3, 100))});
  const CompareSection* s = Section(cmp, "per size");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->rows.empty());
  ASSERT_EQ(s->notes.size(), 1u);
  EXPECT_EQ(s->notes[0],
            "per-size rows not compared: the block-size mixes differ (#1 measured 4 KiB, 64 KiB; #2 "
            "measured 4 KiB, 1 MiB; #3 has one block size); only the totals above are compared");
}

RunResult PacedRun(int64_t id, double target_iops, double achieved, bool sustained) {
  RunResult r = Plain(id, 4);
  r.read->lat.p99_us = 5000;  // from the intended start
  PacingFacts p;
  p.target_iops = target_iops;
  p.achieved_iops = achieved;
  p.sustained = sustained;
  p.shortfall_pct = sustained ? 0 : (target_iops - achieved) / target_iops * 100;
  LatencySummary svc;
  svc.p50_us = 400;
  svc.p99_us = 500;
  p.read_service = svc;
  r.pacing = p;
  return r;
}

TEST(ComparePacing, PacingFactsOfBothSideBySide) {
  Comparison cmp = Compare({Column(PacedRun(1, 1000, 1000.2, true)), Column(PacedRun(2, 5000, 3120, false))});
  const CompareSection* s = Section(cmp, "pacing");
  ASSERT_NE(s, nullptr);
  const CompareRow* target = FindRow(s->rows, "target IOPS");
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->cells[0].value, 1000);
  EXPECT_EQ(target->cells[1].value, 5000);
  const CompareRow* svc = FindRow(s->rows, "read service p99 (from submit)");
  ASSERT_NE(svc, nullptr);
  EXPECT_EQ(svc->cells[1].value, 500);
  EXPECT_EQ(FindRow(s->rows, "target MB/s"), nullptr);
  ASSERT_EQ(s->notes.size(), 1u);
  EXPECT_EQ(s->notes[0], "could not sustain the schedule: #2 (37.6 % short)");
  EXPECT_TRUE(cmp.notes.empty());  // both paced: their latencies are timed alike
}

TEST(ComparePacing, PacedLatencyBesideClosedLoopLatencyIsFlaggedNotCompared) {
  RunResult closed = Plain(2, 300);
  closed.read->lat.p99_us = 800;
  Comparison cmp = Compare({Column(PacedRun(1, 1000, 1000, true)), Column(closed)});
  const CompareRow* p99 = nullptr;
  for (const CompareRow& row : cmp.rows)
    if (row.label == "read p99 latency") p99 = &row;
  ASSERT_NE(p99, nullptr);
  EXPECT_TRUE(p99->cells[1].present);
  EXPECT_EQ(p99->cells[1].value, 800);
  EXPECT_EQ(p99->cells[1].caveat, "closed loop");
  ASSERT_EQ(cmp.notes.size(), 1u);
  EXPECT_EQ(cmp.notes[0],
            "latency not compared: #1 paced (timed from each I/O's intended start), #2 closed loop (timed from the "
            "submit); the paced run's service time (pacing rows) is the figure that matches a closed loop's latency");
  const std::string table = ComparisonTable(cmp);
  EXPECT_NE(table.find("800.00 [closed loop]"), std::string::npos) << table;
  EXPECT_EQ(table.find("800.00 (+"), std::string::npos) << table;  // no % against a paced latency
  // MB/s is still compared.
  const CompareRow* mb = nullptr;
  for (const CompareRow& row : cmp.rows)
    if (row.label == "read MB/s") mb = &row;
  ASSERT_NE(mb, nullptr);
  EXPECT_TRUE(mb->cells[1].caveat.empty());
  nlohmann::ordered_json j = ComparisonToJson(cmp);
  EXPECT_EQ(j["notes"].size(), 1u);
  const CompareSection* s = Section(cmp, "pacing");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(FindRow(s->rows, "target IOPS")->cells[1].caveat, "closed loop");
}

}  // namespace
}  // namespace nasperf
