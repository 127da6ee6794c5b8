// MergeRanks: merged latency from the buckets, the stonewall window, the spread flag and
// the failed or missing rank named.
#include "cluster/rank_merge.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "core/runner.h"
#include "stats/histogram.h"
#include "stats/latency_summary.h"

namespace nasperf {
namespace {

// A rank that read `bytes` in `seconds`, starting `start_ns` on the shared clock, its
// latencies `lat_ns`.
RankRun Rank(int rank, int64_t start_ns, double seconds, uint64_t bytes, const std::vector<uint64_t>& lat_ns) {
  auto h = std::make_shared<LatencyHistogram>();
  for (uint64_t v : lat_ns) h->Record(v);
  RankRun r;
  r.rank = rank;
  r.reported = true;
  r.host = "host" + std::to_string(rank);
  r.start_realtime_ns = start_ns;
  r.run.read = SummariseDirection(bytes, lat_ns.size(), seconds, 0, h);
  return r;
}

std::vector<uint64_t> Latencies(uint32_t seed, size_t n, uint64_t scale_ns) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> d(1.0);
  std::vector<uint64_t> v;
  for (size_t i = 0; i < n; ++i) v.push_back(static_cast<uint64_t>(d(rng) * scale_ns) + 1000);
  return v;
}

TEST(RankMerge, MergedP99IsTheP99OfEveryRanksLatenciesTogether) {
  // Ranks with very different latencies: averaging their p99s would be far off.
  std::vector<RankRun> ranks;
  std::vector<uint64_t> all;
  const uint64_t scales[] = {10'000, 50'000, 200'000, 1'000'000};
  for (int r = 0; r < 4; ++r) {
    std::vector<uint64_t> lat = Latencies(100 + r, 5000 + 1000 * r, scales[r]);
    all.insert(all.end(), lat.begin(), lat.end());
    ranks.push_back(Rank(r, 1'000'000'000 + r * 1000, 10, 100'000'000, lat));
  }
  LatencyHistogram together;
  for (uint64_t v : all) together.Record(v);

  RunResult merged = MergeRanks(ranks, true);
  ASSERT_TRUE(merged.read);
  EXPECT_DOUBLE_EQ(merged.read->lat.p99_us, together.Percentile(0.99) / 1000);
  EXPECT_DOUBLE_EQ(merged.read->lat.p50_us, together.Percentile(0.50) / 1000);
  EXPECT_DOUBLE_EQ(merged.read->lat.max_us, together.max_ns() / 1000.0);
  EXPECT_EQ(merged.read->ios, all.size());
  double mean_of_p99s = 0;
  for (const RankRun& r : ranks) mean_of_p99s += r.run.read->lat.p99_us / 4;
  EXPECT_GT(std::abs(mean_of_p99s - merged.read->lat.p99_us), merged.read->lat.p99_us * 0.1);
}

TEST(RankMerge, StonewallWindowLiesInsideEveryRanksOwnWindow) {
  std::vector<RankRun> ranks = {Rank(0, 5'000'000'000, 10.0, 1'000'000'000, {1000}),
                                Rank(1, 5'000'300'000, 9.5, 900'000'000, {1000}),
                                Rank(2, 5'001'000'000, 10.2, 1'000'000'000, {1000})};
  RunResult merged = MergeRanks(ranks, true);
  ASSERT_TRUE(merged.cluster);
  const ClusterFacts& c = *merged.cluster;
  EXPECT_NEAR(c.start_skew_us, 1000, 1e-6);
  // Latest start 1 ms after the earliest; earliest end is rank 1's at 0.3 ms + 9.5 s.
  EXPECT_NEAR(c.window_s, 9.5003 - 0.001, 1e-9);
  EXPECT_NEAR(c.first_done_s, 9.5003, 1e-9);
  EXPECT_NEAR(c.last_done_s, 10.201, 1e-9);
  for (const RankResult& r : c.each) {
    EXPECT_GE(c.first_done_s - c.window_s, r.start_offset_s - 1e-9);  // window starts after every start
    EXPECT_LE(c.first_done_s, r.start_offset_s + r.seconds + 1e-9);   // and ends before every end
  }
  EXPECT_NEAR(merged.read->mb_per_s, 100 + 900.0 / 9.5 + 1000 / 10.2, 1e-9);
  EXPECT_NEAR(c.last_done_mb_per_s, 2900.0 / 10.201, 1e-6);
  EXPECT_FALSE(merged.partial);
}

std::string Fixed(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const std::string* NoteStarting(const RunResult& run, const std::string& start) {
  for (const std::string& n : run.notes)
    if (n.starts_with(start)) return &n;
  return nullptr;
}

// The merged MB/s is the sum of the ranks' rates while `seconds` is the stonewall window
// and `bytes` every rank's over its own time, so bytes / seconds is not the MB/s: a note
// says how they relate, with both figures (issue 20: "per-rank figures sum to the total").
TEST(RankMerge, NoteSaysHowBytesSecondsAndTheSummedRateRelate) {
  std::vector<RankRun> ranks = {Rank(0, 5'000'000'000, 10.0, 1'000'000'000, {1000}),
                                Rank(1, 5'000'300'000, 9.5, 900'000'000, {1000}),
                                Rank(2, 5'001'000'000, 10.2, 1'000'000'000, {1000})};
  RunResult merged = MergeRanks(ranks, true);
  ASSERT_TRUE(merged.read);
  const double by_window = 2.9e9 / merged.read->seconds / 1e6;
  EXPECT_GT(std::abs(by_window - merged.read->mb_per_s), 1.0) << "the two figures differ here";
  const std::string* note = NoteStarting(merged, "total MB/s");
  ASSERT_TRUE(note) << ::testing::PrintToString(merged.notes);
  EXPECT_EQ(*note, "total MB/s " + Fixed("%.1f", merged.read->mb_per_s) +
                       " is the sum of the ranks' own rates, not bytes / seconds: seconds (" +
                       Fixed("%.3f", merged.read->seconds) +
                       " s) is the stonewall window, when every rank ran, and bytes are every rank's over its own "
                       "time, so bytes / seconds = " + Fixed("%.1f", by_window) + " MB/s");

  RunResult off = MergeRanks(ranks, false);
  const std::string* off_note = NoteStarting(off, "total MB/s");
  ASSERT_TRUE(off_note) << ::testing::PrintToString(off.notes);
  EXPECT_NE(off_note->find("seconds (10.201 s) is from the earliest start to the latest end"), std::string::npos)
      << *off_note;
  EXPECT_NE(off_note->find("bytes / seconds = " + Fixed("%.1f", off.cluster->last_done_mb_per_s) +
                           " MB/s (the last-done figure)"),
            std::string::npos)
      << *off_note;
}

TEST(RankMerge, SpreadOverTenPercentIsFlagged) {
  std::vector<RankRun> even = {Rank(0, 0, 10, 1'000'000'000, {1000}), Rank(1, 0, 10, 1'050'000'000, {1000})};
  EXPECT_FALSE(MergeRanks(even, true).cluster->spread_flagged);
  std::vector<RankRun> uneven = {Rank(0, 0, 10, 1'000'000'000, {1000}), Rank(1, 0, 10, 1'200'000'000, {1000})};
  RunResult merged = MergeRanks(uneven, true);
  EXPECT_TRUE(merged.cluster->spread_flagged);
  EXPECT_NEAR(merged.cluster->spread_pct, 20, 1e-9);
}

TEST(RankMerge, MissingRankMakesThePartialRunNameIt) {
  std::vector<RankRun> ranks = {Rank(0, 0, 10, 1'000'000'000, {1000}), RankRun{},
                                Rank(2, 0, 10, 1'000'000'000, {1000})};
  ranks[1].rank = 1;
  RunResult merged = MergeRanks(ranks, true);
  EXPECT_TRUE(merged.partial);
  EXPECT_NE(merged.error.find("rank 1"), std::string::npos) << merged.error;
  EXPECT_FALSE(merged.cluster->each[1].reported);
  EXPECT_EQ(merged.read->bytes, 2'000'000'000u);  // what the reported ranks measured
}

// mpirun ends every rank with SIGTERM when one is killed: the killed one is the cause.
TEST(RankMerge, MissingRankIsNamedBeforeTheRanksItsDeathInterrupted) {
  std::vector<RankRun> ranks = {Rank(0, 0, 1, 1'000'000, {1000}), Rank(1, 0, 1, 1'000'000, {1000}), RankRun{}};
  ranks[2].rank = 2;
  for (int r : {0, 1}) {
    ranks[r].run.partial = true;
    ranks[r].run.error = "interrupted by signal";
  }
  RunResult merged = MergeRanks(ranks, true);
  EXPECT_EQ(merged.error, "rank 2: no result (the rank was killed or lost)");
}

TEST(RankMerge, FailedRankNamesTheRunsError) {
  std::vector<RankRun> ranks = {Rank(0, 0, 10, 1'000'000'000, {1000}), Rank(1, 0, 3, 1'000'000, {1000})};
  ranks[1].run.partial = true;
  ranks[1].run.error = "pwrite: No space left on device";
  RunResult merged = MergeRanks(ranks, false);
  EXPECT_TRUE(merged.partial);
  EXPECT_EQ(merged.error, "rank 1: pwrite: No space left on device");
  EXPECT_FALSE(merged.cluster->stonewall);
}

// Issue 20 item 3: each rank's host and NIC are in its figures, and ranks whose NICs
// differ in MTU are named in a note (one path fragments or carries more per packet).
TEST(RankMerge, EachRankCarriesItsNicAndDifferentMtusAreNoted) {
  std::vector<RankRun> ranks = {Rank(0, 0, 10, 1'000'000'000, {1000}), Rank(1, 0, 10, 1'000'000'000, {1000}),
                                Rank(2, 0, 10, 1'000'000'000, {1000})};
  ranks[0].nic = RankNic{"enp1s0", 10000, 9000};
  ranks[1].nic = RankNic{"enp1s0", 10000, 1500};
  ranks[2].nic = RankNic{"eth0", std::nullopt, std::nullopt};
  RunResult merged = MergeRanks(ranks, true);
  ASSERT_TRUE(merged.cluster);
  ASSERT_TRUE(merged.cluster->each[0].nic);
  EXPECT_EQ(*merged.cluster->each[0].nic, *ranks[0].nic);
  EXPECT_EQ(merged.cluster->each[1].host, "host1");
  EXPECT_EQ(*merged.cluster->each[2].nic, *ranks[2].nic);
  std::string note;
  for (const std::string& n : merged.notes)
    if (n.starts_with("ranks differ in MTU")) note = n;
  EXPECT_EQ(note, "ranks differ in MTU: rank 0 9000 (enp1s0), rank 1 1500 (enp1s0); rank 2 unknown");
}

// Issue 20 item 1: ranks on one LUN each keep their region, and the note says so.
TEST(RankMerge, RanksSharingOneDeviceNameTheirRegions) {
  std::vector<RankRun> ranks = {Rank(0, 0, 10, 4 << 20, {1000}), Rank(1, 0, 10, 4 << 20, {1000})};
  ranks[0].run.target = "/dev/loop7";
  ranks[0].region = RankRegion{0, 8u << 20};
  ranks[1].region = RankRegion{8u << 20, 8u << 20};
  RunResult merged = MergeRanks(ranks, true);
  EXPECT_EQ(merged.cluster->each[1].region, ranks[1].region);
  EXPECT_NE(std::find(merged.notes.begin(), merged.notes.end(),
                      "one target shared by the ranks: each used its own region of /dev/loop7, none overlapping "
                      "(rank 0 [0 B, 8 MiB), rank 1 [8 MiB, 16 MiB))"),
            merged.notes.end())
      << ::testing::PrintToString(merged.notes);
  ranks[1].region = RankRegion{4u << 20, 8u << 20};  // what no RegionOfRank makes
  RunResult overlapping = MergeRanks(ranks, true);
  bool said = false;
  for (const std::string& n : overlapping.notes) said = said || n.starts_with("ranks' regions of /dev/loop7 overlap");
  EXPECT_TRUE(said) << ::testing::PrintToString(overlapping.notes);
}

TEST(RankMerge, SameMtuOrNoNicsGiveNoMtuNote) {
  std::vector<RankRun> ranks = {Rank(0, 0, 10, 1'000'000'000, {1000}), Rank(1, 0, 10, 1'000'000'000, {1000})};
  ranks[0].nic = RankNic{"enp1s0", 1000, 1500};
  ranks[1].nic = RankNic{"eth1", 1000, 1500};
  for (const std::string& n : MergeRanks(ranks, true).notes) EXPECT_FALSE(n.starts_with("ranks differ in MTU")) << n;
  ranks[0].nic.reset();
  ranks[1].nic.reset();
  RunResult local = MergeRanks(ranks, true);
  for (const std::string& n : local.notes) EXPECT_FALSE(n.starts_with("ranks differ in MTU")) << n;
  EXPECT_FALSE(local.cluster->each[0].nic);
}


// Issue 33 item 6: two ranks each paced their share (500 of 1,000 IOPS) over the stonewall
// window. The merged run keeps its pacing facts (target and achieved the sums, judged as
// one schedule), the service times from every rank's buckets, and the job's rate as the
// total asked; it used to drop them all, and with them "latency from intended start".
TEST(RankMerge, PacedRanksKeepThePacingFactsAndServiceTimes) {
  std::vector<RankRun> ranks = {Rank(0, 0, 2, 4096 * 1000, Latencies(1, 1000, 20'000)),
                                Rank(1, 0, 2, 4096 * 1000, Latencies(2, 1000, 80'000))};
  LatencyHistogram together;
  for (int r = 0; r < 2; ++r) {
    auto service = std::make_shared<LatencyHistogram>();
    for (uint64_t v : Latencies(10 + r, 1000, r ? 60'000 : 10'000)) {
      service->Record(v);
      together.Record(v);
    }
    ranks[r].run.job.pacing.rate_iops = 500;
    PacingFacts p;
    p.target_iops = 500;
    p.achieved_iops = 500;
    p.read_service = LatencySummaryOf(*service);
    p.read_service_histogram = service;
    ranks[r].run.pacing = p;
  }
  RunResult merged = MergeRanks(ranks, true);
  ASSERT_TRUE(merged.pacing);
  EXPECT_DOUBLE_EQ(merged.job.pacing.rate_iops, 1000) << "the job's total, not rank 0's share";
  EXPECT_DOUBLE_EQ(merged.pacing->target_iops, 1000);
  EXPECT_DOUBLE_EQ(merged.pacing->achieved_iops, 1000);
  EXPECT_TRUE(merged.pacing->sustained);
  ASSERT_TRUE(merged.pacing->read_service);
  EXPECT_DOUBLE_EQ(merged.pacing->read_service->p99_us, together.Percentile(0.99) / 1000);
  EXPECT_EQ(merged.pacing->read_service_histogram->count(), 2000u);

  // One rank fell short of its share: the whole run did not keep its schedule.
  ranks[1].run.pacing->achieved_iops = 300;
  ranks[1].run.pacing->sustained = false;
  RunResult short_of = MergeRanks(ranks, true);
  ASSERT_TRUE(short_of.pacing);
  EXPECT_FALSE(short_of.pacing->sustained);
  EXPECT_NEAR(short_of.pacing->shortfall_pct, 20, 1e-9);
}

// Issue 33 item 6: a mixed-size job's per-size rows survive the merge, each size's counts
// summed and its latency from every rank's buckets of that size.
TEST(RankMerge, PerSizeRowsSurviveTheMerge) {
  std::vector<RankRun> ranks = {Rank(0, 0, 1, 1, {1000}), Rank(1, 0, 1, 1, {1000})};
  LatencyHistogram small_together;
  for (int r = 0; r < 2; ++r) {
    for (uint64_t bs : {4096u, 65536u}) {
      auto h = std::make_shared<LatencyHistogram>();
      for (uint64_t v : Latencies(20 + r + bs, 500, bs == 4096 ? 10'000u * (r + 1) : 100'000u)) {
        h->Record(v);
        if (bs == 4096) small_together.Record(v);
      }
      SizeResult size;
      size.bs = bs;
      size.read = SummariseDirection(bs * 500, 500, 1, 0, h);
      ranks[r].run.per_size.push_back(size);
    }
  }
  RunResult merged = MergeRanks(ranks, true);
  ASSERT_EQ(merged.per_size.size(), 2u);
  EXPECT_EQ(merged.per_size[0].bs, 4096u);
  EXPECT_EQ(merged.per_size[1].bs, 65536u);
  ASSERT_TRUE(merged.per_size[0].read);
  EXPECT_EQ(merged.per_size[0].read->ios, 1000u);
  EXPECT_EQ(merged.per_size[1].read->bytes, 2u * 65536 * 500);
  EXPECT_DOUBLE_EQ(merged.per_size[0].read->iops, 1000) << "the sum of the ranks' rates";
  EXPECT_DOUBLE_EQ(merged.per_size[0].read->lat.p99_us, small_together.Percentile(0.99) / 1000);
  EXPECT_FALSE(merged.per_size[0].write);
}

// Issue 33 item 6: each rank drew its own seed and checked its own reads cold; each keeps
// them in cluster.each[], and no rank's stands for the run: no seed is the run's unless
// every rank ran with it, and the run is cached when any rank's reads were.
TEST(RankMerge, EachRankKeepsItsSeedAndColdReadCheck) {
  std::vector<RankRun> ranks = {Rank(0, 0, 1, 1, {1000}), Rank(1, 0, 1, 1, {1000})};
  ranks[0].run.job.seed = 11;
  ranks[1].run.job.seed = 22;
  ranks[0].run.cached = false;
  ranks[1].run.cached = true;
  ranks[0].cold_read = "page cache dropped: rank 0's note";
  ranks[1].cold_read = "page cache dropped: rank 1's note";
  RunResult merged = MergeRanks(ranks, true);
  ASSERT_TRUE(merged.cluster);
  EXPECT_EQ(merged.cluster->each[0].seed, 11u);
  EXPECT_EQ(merged.cluster->each[1].seed, 22u);
  EXPECT_EQ(merged.cluster->each[0].cached, false);
  EXPECT_EQ(merged.cluster->each[1].cached, true);
  EXPECT_EQ(merged.cluster->each[1].cold_read, "page cache dropped: rank 1's note");
  EXPECT_FALSE(merged.job.seed) << "rank 0's seed does not rerun rank 1";
  EXPECT_EQ(merged.cached, true) << "rank 1's reads were partly cached";
  for (const std::string& n : merged.notes) EXPECT_FALSE(n.starts_with("page cache dropped")) << n;

  ranks[1].run.job.seed = 11;  // --seed 11 gives every rank 11
  ranks[1].run.cached = false;
  RunResult same = MergeRanks(ranks, true);
  EXPECT_EQ(same.job.seed, 11u);
  EXPECT_EQ(same.cached, false) << "every rank's check found its reads cold";
  ranks[1].run.cached.reset();  // rank 1 checked nothing
  EXPECT_FALSE(MergeRanks(ranks, true).cached);
}

}  // namespace
}  // namespace nasperf
