// No two written blocks are the same, for every stamped pattern (issue 15, item 2): every
// 4 KiB carries its offset, the run seed and the I/O's sequence number, so a rewrite of an
// offset, a repeat and another run all write new data; zero stays zero and says so.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "core/runner.h"
#include "proto/make_target.h"
#include "report/table_report.h"
#include "testing/recording_engine.h"

namespace nasperf {
namespace {

using testing::IoRecording;
using testing::RecordingHooks;

BufferPattern Pattern(const std::string& text) { return ParseBufferPattern(text).value(); }

// A write job on null: that loops over a small region, so offsets are rewritten often.
JobSpec RewritingJob(const BufferPattern& pattern, uint64_t bs, uint32_t qd) {
  JobSpec job;
  job.rw = AccessPattern::kRandWrite;
  job.bs = bs;
  job.qd = qd;
  job.size = 4 * bs;
  job.pattern = pattern;
  job.time_based = true;
  // Long enough for the 400 kept writes even on a loaded machine (at 0.05 s a compressible
  // 64 KiB run under a parallel ctest once fell short, 6272 of the 6400 chunks); what is
  // checked does not depend on the time.
  job.time_s = 0.5;
  return job;
}

RunOutcome RunRecorded(const JobSpec& job, IoRecording* rec) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  EXPECT_TRUE(target.ok());
  return RunJob(job, *target.value(), {}, RecordingHooks(rec));
}

// Every 4 KiB chunk of every kept write, as strings (for set membership).
std::vector<std::string> Chunks(const IoRecording& rec) {
  std::vector<std::string> out;
  for (const auto& ios : rec.engines)
    for (const testing::RecordedIo& io : ios)
      for (size_t at = 0; at < io.data.size(); at += 4096)
        out.emplace_back(reinterpret_cast<const char*>(io.data.data()) + at,
                         std::min<size_t>(4096, io.data.size() - at));
  return out;
}

class UniqueWrites : public ::testing::TestWithParam<std::string> {};

TEST_P(UniqueWrites, EveryWritten4KiBOfARunDiffersFromEveryOther) {
  for (uint64_t bs : {4096ull, 65536ull}) {
    IoRecording rec;
    rec.keep_write_data = 400;
    JobSpec job = RewritingJob(Pattern(GetParam()), bs, 4);
    RunOutcome run = RunRecorded(job, &rec);
    ASSERT_TRUE(run.status.ok()) << run.status.message();
    std::vector<std::string> chunks = Chunks(rec);
    ASSERT_GE(chunks.size(), 400u * bs / 4096) << "the run wrote too little to show anything";
    std::set<std::string> distinct(chunks.begin(), chunks.end());
    EXPECT_EQ(distinct.size(), chunks.size()) << GetParam() << " at bs " << bs;
  }
}

TEST_P(UniqueWrites, TwoWritesOfOneOffsetDiffer) {
  IoRecording rec;
  rec.keep_write_data = 64;
  RunOutcome run = RunRecorded(RewritingJob(Pattern(GetParam()), 4096, 1), &rec);
  ASSERT_TRUE(run.status.ok());
  const auto& ios = rec.engines[0];
  bool compared = false;
  for (size_t i = 0; i < 64 && i < ios.size(); ++i)
    for (size_t k = i + 1; k < 64 && k < ios.size(); ++k)
      if (ios[i].offset == ios[k].offset) {
        compared = true;
        EXPECT_NE(ios[i].data, ios[k].data) << "writes " << i << " and " << k << " at " << ios[i].offset;
      }
  EXPECT_TRUE(compared) << "64 writes over 4 blocks must rewrite one";
}

TEST_P(UniqueWrites, TwoRunsWriteDifferentData) {
  IoRecording a, b;
  a.keep_write_data = b.keep_write_data = 8;
  JobSpec job = RewritingJob(Pattern(GetParam()), 4096, 1);
  ASSERT_TRUE(RunRecorded(job, &a).status.ok());
  ASSERT_TRUE(RunRecorded(job, &b).status.ok());
  for (const std::string& chunk : Chunks(a)) {
    std::vector<std::string> other = Chunks(b);
    EXPECT_EQ(std::count(other.begin(), other.end(), chunk), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(StampedPatterns, UniqueWrites,
                         ::testing::Values("random", "compressible:50", "compressible:100"), [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == ':') c = '_';
                           return name;
                         });

TEST(ZeroWrites, StayZeroAndTheRunSaysSo) {
  IoRecording rec;
  rec.keep_write_data = 4;
  RunOutcome run = RunRecorded(RewritingJob(Pattern("zero"), 4096, 1), &rec);
  ASSERT_TRUE(run.status.ok());
  for (const auto& io : rec.engines[0])
    for (std::byte b : io.data) ASSERT_EQ(b, std::byte{0});
  ASSERT_TRUE(run.result.data);
  EXPECT_EQ(run.result.data->pattern, "zero");
  EXPECT_FALSE(run.result.data->unique_blocks);
  EXPECT_NE(DataLine(run.result).find("dedupe"), std::string::npos) << DataLine(run.result);
}

TEST(WriteData, TheRunReportsItsPatternAndTheRatioAchieved) {
  IoRecording rec;
  JobSpec job = RewritingJob(Pattern("compressible:50"), 65536, 1);
  RunOutcome run = RunRecorded(job, &rec);
  ASSERT_TRUE(run.status.ok());
  ASSERT_TRUE(run.result.data);
  EXPECT_EQ(run.result.data->pattern, "compressible:50");
  EXPECT_TRUE(run.result.data->unique_blocks);
  EXPECT_GT(run.result.data->compress_ratio, 1.8);
  EXPECT_LT(run.result.data->compress_ratio, 2.2);
  const std::string line = DataLine(run.result);
  EXPECT_NE(line.find("compressible:50"), std::string::npos) << line;
  EXPECT_NE(line.find(":1"), std::string::npos) << line;

  JobSpec reads = job;
  reads.rw = AccessPattern::kRandRead;
  EXPECT_FALSE(RunRecorded(reads, &rec).result.data) << "a run that wrote nothing has no data facts";
}

}  // namespace
}  // namespace nasperf
