// Every run and every repeat is independent (issue 15, item 1): a fresh seed per run and
// repeat drives offsets, the read/write mix and buffer content; --seed reproduces a run.
#include <gtest/gtest.h>

#include <set>

#include "core/runner.h"
#include "proto/make_target.h"
#include "model/run_json.h"
#include "testing/recording_engine.h"
#include "workload/run_seed.h"
#include "model/job_validate.h"

namespace nasperf {
namespace {

using testing::IoRecording;
using testing::RecordingHooks;

JobSpec RandomJob(AccessPattern rw = AccessPattern::kRandRead) {
  JobSpec job;
  job.rw = rw;
  job.bs = 4096;
  job.size = 64 << 20;  // 16384 blocks: two random orders agree on a first offset 1 time in 16384
  job.time_based = false;
  return job;
}

std::vector<uint64_t> Offsets(const std::vector<testing::RecordedIo>& ios, size_t n) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < ios.size() && i < n; ++i) out.push_back(ios[i].offset);
  return out;
}

RunOutcome RunRecorded(const JobSpec& job, IoRecording* rec) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  return RunRepeated(job, *target.value(), {}, RecordingHooks(rec));
}

TEST(IndependentRuns, TwoRunsWithoutSeedStartAtDifferentOffsetsAndSayWhichSeed) {
  IoRecording a, b;
  RunOutcome first = RunRecorded(RandomJob(), &a);
  RunOutcome second = RunRecorded(RandomJob(), &b);
  ASSERT_TRUE(first.status.ok() && second.status.ok());
  ASSERT_TRUE(first.result.job.seed && second.result.job.seed);
  EXPECT_NE(*first.result.job.seed, *second.result.job.seed);
  ASSERT_EQ(a.engines.size(), 1u);
  ASSERT_EQ(b.engines.size(), 1u);
  EXPECT_NE(Offsets(a.engines[0], 8), Offsets(b.engines[0], 8));
}

TEST(IndependentRuns, SeedReproducesTheOffsetsAndTheMix) {
  for (AccessPattern rw : {AccessPattern::kRandRead, AccessPattern::kRandReadWrite}) {
    IoRecording fresh, again;
    RunOutcome first = RunRecorded(RandomJob(rw), &fresh);
    ASSERT_TRUE(first.status.ok() && first.result.job.seed);
    JobSpec rerun = RandomJob(rw);
    rerun.seed = *first.result.job.seed;
    RunOutcome second = RunRecorded(rerun, &again);
    ASSERT_TRUE(second.status.ok());
    EXPECT_EQ(second.result.job.seed, first.result.job.seed);
    ASSERT_EQ(fresh.engines[0].size(), again.engines[0].size());
    for (size_t i = 0; i < fresh.engines[0].size(); ++i) {
      ASSERT_EQ(fresh.engines[0][i].offset, again.engines[0][i].offset) << ToString(rw) << " I/O " << i;
      ASSERT_EQ(fresh.engines[0][i].dir, again.engines[0][i].dir) << ToString(rw) << " I/O " << i;
    }
  }
}

TEST(IndependentRuns, ThreadsOfOneRunDrawDifferentOrders) {
  IoRecording rec;
  JobSpec job = RandomJob();
  job.size = 16 << 20;
  job.threads = 2;
  RunOutcome run = RunRecorded(job, &rec);
  ASSERT_TRUE(run.status.ok());
  ASSERT_EQ(rec.engines.size(), 2u);
  // null: gives each thread the same region, so equal seeds would give equal offsets.
  EXPECT_NE(Offsets(rec.engines[0], 8), Offsets(rec.engines[1], 8));
}

TEST(IndependentRuns, EveryRepeatHasItsOwnSeedAndSeedReproducesEachRepeat) {
  IoRecording series;
  JobSpec job = RandomJob();
  job.size = 4 << 20;
  job.repeat = 3;
  job.seed = 4242;
  RunOutcome run = RunRecorded(job, &series);
  ASSERT_TRUE(run.status.ok());
  ASSERT_EQ(run.result.repeats.size(), 3u);
  ASSERT_EQ(series.engines.size(), 3u);
  EXPECT_EQ(run.result.job.seed, 4242u) << "the run's seed is the series' seed";
  EXPECT_EQ(run.result.repeats[0].seed, 4242u) << "the first repeat runs with --seed itself";
  std::set<uint64_t> seeds;
  for (const RepeatFigures& r : run.result.repeats) seeds.insert(r.seed);
  EXPECT_EQ(seeds.size(), 3u);
  EXPECT_NE(Offsets(series.engines[0], 8), Offsets(series.engines[1], 8));
  EXPECT_NE(Offsets(series.engines[1], 8), Offsets(series.engines[2], 8));

  // Each repeat alone, from its stored seed.
  for (size_t i = 0; i < 3; ++i) {
    IoRecording alone;
    JobSpec one = RandomJob();
    one.size = 4 << 20;
    one.seed = run.result.repeats[i].seed;
    ASSERT_TRUE(RunRecorded(one, &alone).status.ok());
    EXPECT_EQ(Offsets(alone.engines[0], 1u << 20), Offsets(series.engines[i], 1u << 20)) << "repeat " << i;
  }
  // And the series again, from the run's seed.
  IoRecording again;
  ASSERT_TRUE(RunRecorded(job, &again).status.ok());
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(Offsets(again.engines[i], 1u << 20), Offsets(series.engines[i], 1u << 20)) << "repeat " << i;
}

TEST(IndependentRuns, TheJsonDocumentCarriesTheSeedOfTheRunAndOfEachRepeat) {
  IoRecording rec;
  JobSpec job = RandomJob();
  job.size = 1 << 20;
  job.repeat = 2;
  RunOutcome run = RunRecorded(job, &rec);
  ASSERT_TRUE(run.status.ok());
  nlohmann::ordered_json j = RunToJson(run.result);
  ASSERT_TRUE(j.contains("seed"));
  EXPECT_EQ(j["seed"].get<uint64_t>(), *run.result.job.seed);
  EXPECT_EQ(j["job"]["seed"].get<uint64_t>(), *run.result.job.seed);
  EXPECT_LE(j["seed"].get<uint64_t>(), kMaxSeed);
  ASSERT_EQ(j["repeats"]["each"].size(), 2u);
  EXPECT_EQ(j["repeats"]["each"][0]["seed"].get<uint64_t>(), run.result.repeats[0].seed);
  EXPECT_EQ(j["repeats"]["each"][1]["seed"].get<uint64_t>(), run.result.repeats[1].seed);

  Result<RunResult> back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value().job.seed, run.result.job.seed);
  EXPECT_EQ(back.value().repeats[1].seed, run.result.repeats[1].seed);
}

TEST(IndependentRuns, ASeedTooLargeForJsonIsRefused) {
  JobSpec job = RandomJob();
  job.seed = kMaxSeed + 1;
  Status s = ValidateJob(job);
  EXPECT_EQ(s.kind(), ErrorKind::kBadInput);
  EXPECT_NE(s.message().find("--seed"), std::string::npos) << s.message();
  nlohmann::json j = JobToJson(RandomJob(), "null");
  j["seed"] = "12";
  EXPECT_FALSE(JobFromJson(j).ok());
}

TEST(RunSeed, FreshSeedsDifferAndStayBelowTwoToThe53) {
  std::set<uint64_t> seeds;
  for (int i = 0; i < 64; ++i) {
    uint64_t s = NewRunSeed();
    EXPECT_GE(s, 1u);
    EXPECT_LE(s, kMaxSeed);
    seeds.insert(s);
  }
  EXPECT_EQ(seeds.size(), 64u);
}

TEST(RunSeed, StreamsAndThreadsAreApart) {
  std::set<uint64_t> derived;
  for (uint64_t run : {1ull, 2ull})
    for (SeedStream s : {SeedStream::kOffsets, SeedStream::kMix, SeedStream::kBuffers})
      for (uint32_t t = 0; t < 4; ++t) derived.insert(StreamSeed(run, s, t));
  EXPECT_EQ(derived.size(), 2u * 3u * 4u);
  EXPECT_EQ(RepeatSeed(99, 0), 99u);
  EXPECT_NE(RepeatSeed(99, 1), RepeatSeed(99, 2));
  EXPECT_LE(RepeatSeed(kMaxSeed, 7), kMaxSeed);
}

}  // namespace
}  // namespace nasperf
