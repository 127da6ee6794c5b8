// AppRankRunner and MergeAppRanks: an app run of every rank becomes one run over the ranks'
// span, its operation latencies from the summed histograms; the payload carries those
// histograms whole; a rank told the merged run was not whole stops there.
#include "cluster/app_rank_runner.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>

#include "cluster/rank_payload.h"
#include "cluster/rank_runner.h"
#include "core/runner.h"
#include "testing/fake_comm.h"

namespace nasperf {
namespace {

// A rank's file-copy of `bytes` taking `elapsed_s`, started `start_s` after 0, with
// `writes` writes of `write_us` each.
RankRun CopyRun(int rank, uint64_t bytes, double elapsed_s, double start_s, const std::string& cache) {
  RankRun r;
  r.rank = rank;
  r.reported = true;
  r.host = "client-" + std::to_string(rank);
  r.start_realtime_ns = 1764633600000000000 + static_cast<int64_t>(start_s * 1e9);
  AppFigures app;
  app.workload = "file-copy";
  app.bytes = bytes;
  app.files = 1;
  app.elapsed_s = elapsed_s;
  app.mb_per_s = bytes / elapsed_s / 1e6;
  app.cache_state = cache;
  r.run.app = app;
  auto h = std::make_shared<LatencyHistogram>();
  for (int i = 0; i < 10; ++i) h->Record(1000000);
  r.run.write = SummariseDirection(bytes, h->count(), elapsed_s, 1, h);
  return r;
}

OpHistograms Ops(const std::string& op, int n, uint64_t ns) {
  OpHistograms t{{op, {}}};
  for (int i = 0; i < n; ++i) t[0].h.Record(ns);
  return t;
}

OpHistograms Writes(int n, uint64_t ns) { return Ops("write", n, ns); }

TEST(MergeAppRanks, BytesOfEveryRankOverTheirSpanAndLatencyFromTheSummedHistograms) {
  std::vector<RankRun> ranks = {CopyRun(0, 100'000'000, 1.0, 0.0, "cold"), CopyRun(1, 200'000'000, 2.0, 0.5, "cold")};
  std::vector<std::optional<OpHistograms>> ops = {Writes(99, 1'000'000), Writes(1, 500'000'000)};
  RunResult merged = MergeAppRanks(ranks, ops);
  ASSERT_TRUE(merged.app);
  EXPECT_EQ(merged.app->bytes, 300'000'000u);
  EXPECT_EQ(merged.app->files, 2u);
  EXPECT_NEAR(merged.app->elapsed_s, 2.5, 1e-9) << "from rank 0's start to rank 1's end";
  EXPECT_NEAR(merged.app->mb_per_s, 300.0 / 2.5, 1e-9);
  EXPECT_EQ(merged.app->cache_state, "cold");
  ASSERT_EQ(merged.app->ops.size(), 1u);
  EXPECT_EQ(merged.app->ops[0].op, "write");
  EXPECT_EQ(merged.app->ops[0].count, 100u);
  // The one slow write of rank 1 is the p99 of the hundred, not the average of two p99s.
  EXPECT_GT(merged.app->ops[0].max_us, 400000);
  EXPECT_LT(merged.app->ops[0].p50_us, 2000);
  ASSERT_TRUE(merged.cluster);
  EXPECT_EQ(merged.cluster->ranks, 2);
  EXPECT_FALSE(merged.cluster->stonewall);
}

// office and photo-album name their own operations (rename, list, read-photo): merged by
// name, in the order they first appear, and office's rate is every rank's operations over
// the ranks' span.
TEST(MergeAppRanks, OperationsOfTheirOwnNamesMergeByNameAndTheOfficeRateIsOverTheSpan) {
  std::vector<RankRun> ranks = {CopyRun(0, 1000, 10.0, 0.0, "unknown"), CopyRun(1, 1000, 10.0, 0.0, "unknown")};
  for (RankRun& r : ranks) r.run.app->ops_per_s = 3.0;
  OpHistograms rank0 = Ops("rename", 20, 2'000'000);
  MergeOpHistograms(rank0, Ops("list", 10, 100'000));
  OpHistograms rank1 = Ops("list", 10, 300'000);
  std::vector<std::optional<OpHistograms>> ops = {rank0, rank1};
  RunResult merged = MergeAppRanks(ranks, ops);
  ASSERT_TRUE(merged.app);
  ASSERT_EQ(merged.app->ops.size(), 2u);
  EXPECT_EQ(merged.app->ops[0].op, "rename");
  EXPECT_EQ(merged.app->ops[0].count, 20u);
  EXPECT_EQ(merged.app->ops[1].op, "list");
  EXPECT_EQ(merged.app->ops[1].count, 20u);
  EXPECT_GT(merged.app->ops[1].max_us, 250) << "rank 1's slower lists are in the merged histogram";
  ASSERT_TRUE(merged.app->ops_per_s);
  EXPECT_NEAR(*merged.app->ops_per_s, 40 / 10.0, 1e-9) << "40 operations over the 10 s both ranks ran";
  EXPECT_EQ(merged.app->threads, 2u) << "each rank's one worker, at once";
}

// A rank of office or photo-album keeps no read or write figures: its own time and rate
// are its app figures, so the rank table and the spread say what each rank did.
TEST(MergeAppRanks, RanksWithoutDirectionsShowTheirAppTimeAndRate) {
  std::vector<RankRun> ranks = {CopyRun(0, 10'000'000, 2.0, 0.0, "unknown"),
                                CopyRun(1, 30'000'000, 2.0, 0.0, "unknown")};
  for (RankRun& r : ranks) r.run.write.reset();
  RunResult merged = MergeAppRanks(ranks, {std::nullopt, std::nullopt});
  ASSERT_TRUE(merged.cluster);
  ASSERT_EQ(merged.cluster->each.size(), 2u);
  EXPECT_NEAR(merged.cluster->each[0].seconds, 2.0, 1e-9);
  EXPECT_NEAR(merged.cluster->each[1].total_mb_per_s(), 15.0, 1e-9);
  EXPECT_NEAR(merged.cluster->last_done_s, 2.0, 1e-9);
  EXPECT_NEAR(merged.cluster->last_done_mb_per_s, 20.0, 1e-9) << "40 MB over the 2 s span";
  EXPECT_NEAR(merged.cluster->spread_pct, 200.0, 1e-6) << "15 MB/s against 5 MB/s";
}

// backup and restore: MB/s of source is every rank's source bytes over the ranks' span
// (rank 0: 50 MB of source in 1 s; rank 1: 150 MB in 2 s starting 0.5 s later: 200 MB / 2.5 s).
TEST(MergeAppRanks, SourceRateIsEveryRanksSourceOverTheSpan) {
  std::vector<RankRun> ranks = {CopyRun(0, 40'000'000, 1.0, 0.0, "unknown"),
                                CopyRun(1, 100'000'000, 2.0, 0.5, "unknown")};
  ranks[0].run.app->source_mb_per_s = 50.0;
  ranks[1].run.app->source_mb_per_s = 75.0;
  RunResult merged = MergeAppRanks(ranks, {std::nullopt, std::nullopt});
  ASSERT_TRUE(merged.app && merged.app->source_mb_per_s);
  EXPECT_NEAR(merged.app->elapsed_s, 2.5, 1e-9);
  EXPECT_NEAR(*merged.app->source_mb_per_s, 200.0 / 2.5, 1e-9);
}

TEST(MergeAppRanks, RanksThatJudgedTheirCacheDifferentlyMakeItUnknown) {
  std::vector<RankRun> ranks = {CopyRun(0, 1000, 1.0, 0, "cold"), CopyRun(1, 1000, 1.0, 0, "warm")};
  RunResult merged = MergeAppRanks(ranks, {std::nullopt, std::nullopt});
  ASSERT_TRUE(merged.app);
  EXPECT_EQ(merged.app->cache_state, "unknown");
}

TEST(MergeAppRanks, AMissingRankMakesItPartialAndCountsNothingOfIt) {
  std::vector<RankRun> ranks = {CopyRun(0, 1000, 1.0, 0, "cold"), RankRun{}};
  ranks[1].rank = 1;
  RunResult merged = MergeAppRanks(ranks, {std::nullopt, std::nullopt});
  EXPECT_TRUE(merged.partial);
  EXPECT_NE(merged.error.find("rank 1"), std::string::npos) << merged.error;
  ASSERT_TRUE(merged.app);
  EXPECT_EQ(merged.app->bytes, 1000u);
}

TEST(AppRankPayload, RoundTripKeepsTheOperationHistograms) {
  RankRun in = CopyRun(2, 4096, 0.5, 0, "warm");
  OpHistograms ops = Writes(7, 123'000);
  MergeOpHistograms(ops, Ops("mkdir", 1, 5'000));
  std::optional<OpHistograms> out_ops;
  Result<RankRun> out = DecodeAppRankRun(EncodeAppRankRun(in, &ops), &out_ops);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_TRUE(out_ops);
  ASSERT_EQ(out_ops->size(), 2u);
  EXPECT_EQ((*out_ops)[0].op, "write");
  EXPECT_EQ((*out_ops)[0].h.count(), 7u);
  EXPECT_EQ((*out_ops)[0].h.max_ns(), 123'000u);
  EXPECT_EQ((*out_ops)[1].op, "mkdir");
  EXPECT_EQ((*out_ops)[1].h.count(), 1u);
  ASSERT_TRUE(out.value().run.app);
  EXPECT_EQ(out.value().run.app->bytes, 4096u);
  Result<RankRun> none = DecodeAppRankRun(EncodeAppRankRun(in, nullptr), &out_ops);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(out_ops);
}

TEST(AppRankPayload, TruncatedOrTrailingBytesAreRefused) {
  OpHistograms ops = Writes(3, 1000);
  const std::string bytes = EncodeAppRankRun(CopyRun(1, 10, 1, 0, "cold"), &ops);
  std::optional<OpHistograms> out_ops;
  EXPECT_FALSE(DecodeAppRankRun(bytes.substr(0, bytes.size() - 1), &out_ops).ok());
  EXPECT_FALSE(DecodeAppRankRun(bytes + "x", &out_ops).ok());
  EXPECT_FALSE(DecodeAppRankRun("", &out_ops).ok());
}

TEST(AppRankRunner, EachRunIsAnEpochAndAMergedFailureStopsTheRankThere) {
  testing::FakeComm comm(1, 2);
  comm.inbox[RankTag(kTagVerdict, 0)].push_back({0, "0"});
  comm.inbox[RankTag(kTagVerdict, 1)].push_back({0, "1rank 0 failed: write: No space left on device"});
  AppRankRunner ranks(comm);
  ASSERT_TRUE(ranks.BeforeClock().ok());
  Status status = Status::Ok();
  RunResult first = ranks.AfterRun(CopyRun(1, 10, 1, 0, "cold").run, nullptr, &status);
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_FALSE(first.partial);
  EXPECT_EQ(comm.sent[RankTag(kTagResult, 0)].size(), 1u);
  // The second run's body failed before its clock: the rank still meets the others.
  RunResult second = ranks.AfterRun(CopyRun(1, 10, 1, 0, "cold").run, nullptr, &status);
  EXPECT_EQ(comm.barriers, 2);
  EXPECT_EQ(comm.sent[RankTag(kTagResult, 1)].size(), 1u) << "under the second run's own tag";
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "rank 0 failed: write: No space left on device");
  EXPECT_TRUE(second.partial);
}

}  // namespace
}  // namespace nasperf
