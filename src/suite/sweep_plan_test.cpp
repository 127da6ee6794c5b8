// Tests for sweep planning: sizes, defaults from RAM and free space, bad input.
#include "suite/sweep_plan.h"
#include "testing/sizes.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using testing::kKiB;
using testing::kMiB;
using testing::kGiB;

SweepPlanInput Input() {
  SweepPlanInput in;
  in.tests = {std::begin(kAllSweepTests), std::end(kAllSweepTests)};
  in.cache_ram_bytes = 8 * kGiB;
  in.free_bytes = 100 * kGiB;
  in.target = "/data";
  return in;
}

TEST(SweepPlan, DoublesFromMinToMax) {
  EXPECT_EQ(DoublingSizes(64 * kKiB, 1 * kMiB, true),
            (std::vector<uint64_t>{64 * kKiB, 128 * kKiB, 256 * kKiB, 512 * kKiB, kMiB}));
  // Not a power of two: the list doubles from min and ends at the max that was asked for.
  EXPECT_EQ(DoublingSizes(100 * kKiB, kMiB, true),
            (std::vector<uint64_t>{100 * kKiB, 200 * kKiB, 400 * kKiB, 800 * kKiB, kMiB}));
  EXPECT_EQ(DoublingSizes(100 * kKiB, kMiB, false), (std::vector<uint64_t>{100 * kKiB, 200 * kKiB, 400 * kKiB, 800 * kKiB}));
  EXPECT_EQ(DoublingSizes(kMiB, kMiB, true), (std::vector<uint64_t>{kMiB}));
  EXPECT_EQ(DoublingSizes(1ull << 62, UINT64_MAX, false).size(), 2u);  // no overflow
}

TEST(SweepPlan, DefaultMaxIsTwiceTheRamAndSaysSo) {
  Result<SweepPlan> plan = PlanSweep(Input());
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan.value().max_bytes, 16 * kGiB);
  EXPECT_EQ(plan.value().sizes.front(), 64 * kKiB);
  EXPECT_EQ(plan.value().sizes.size(), 19u);  // 64 KiB .. 16 GiB
  EXPECT_NE(plan.value().max_reason.find("twice the 8.0 GiB of RAM"), std::string::npos) << plan.value().max_reason;
  EXPECT_TRUE(plan.value().notes.empty());
  EXPECT_EQ(plan.value().PointCount(), 19u * 6);
}

TEST(SweepPlan, DefaultMaxIsCappedByFreeSpace) {
  SweepPlanInput in = Input();
  in.free_bytes = 5 * kGiB;
  Result<SweepPlan> plan = PlanSweep(in);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan.value().max_bytes, 4 * kGiB);  // the largest doubling under 90 % of 5 GiB
  EXPECT_NE(plan.value().max_reason.find("capped by the free space"), std::string::npos);
  ASSERT_EQ(plan.value().notes.size(), 1u);
  EXPECT_NE(plan.value().notes[0].find("cannot show the uncached plateau"), std::string::npos);
}

TEST(SweepPlan, RecordsLargerThanTheFileAreSkippedAndNamed) {
  SweepPlanInput in = Input();
  in.min_bytes = 4 * kKiB;
  in.max_bytes = 64 * kKiB;
  in.records = {4 * kKiB, 16 * kKiB};
  Result<SweepPlan> plan = PlanSweep(in);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan.value().PointCount(), (5u + 3u) * 6);  // 16 KiB records skip 4 and 8 KiB files
  ASSERT_FALSE(plan.value().notes.empty());
  EXPECT_NE(plan.value().notes.back().find("4 KiB with 16 KiB; 8 KiB with 16 KiB"), std::string::npos)
      << plan.value().notes.back();
}

TEST(SweepPlan, PartialRecordsAreNamed) {
  SweepPlanInput in = Input();
  in.min_bytes = 100 * kKiB;
  in.max_bytes = 200 * kKiB;
  Result<SweepPlan> plan = PlanSweep(in);
  ASSERT_TRUE(plan.ok());
  ASSERT_FALSE(plan.value().notes.empty());
  EXPECT_NE(plan.value().notes.back().find("only whole records"), std::string::npos);
}

TEST(SweepPlan, BadInputIsOneClearLine) {
  SweepPlanInput in = Input();
  in.min_bytes = 2 * kMiB;
  in.max_bytes = kMiB;
  Result<SweepPlan> plan = PlanSweep(in);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(plan.status().message().find("larger than --max"), std::string::npos);

  in = Input();
  in.max_bytes = 200 * kGiB;
  plan = PlanSweep(in);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("does not fit"), std::string::npos);

  in = Input();
  in.min_bytes = 4 * kKiB;
  in.max_bytes = 8 * kKiB;
  in.records = {kMiB};
  plan = PlanSweep(in);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("every record is larger than every file"), std::string::npos);
}

TEST(SweepPlan, ParsesTestsAndRecords) {
  Result<std::vector<SweepTest>> tests = ParseSweepTests("randread,write");
  ASSERT_TRUE(tests.ok());
  EXPECT_EQ(tests.value(), (std::vector<SweepTest>{SweepTest::kWrite, SweepTest::kRandRead}));
  EXPECT_FALSE(ParseSweepTests("write,seqread").ok());
  EXPECT_NE(ParseSweepTests("write,seqread").status().message().find("'seqread'"), std::string::npos);
  EXPECT_FALSE(ParseSweepTests("").ok());
  EXPECT_FALSE(ParseSweepTests("write,").ok());
  EXPECT_NE(ParseSweepTests("reread").status().message().find("add read"), std::string::npos);

  Result<std::vector<uint64_t>> records = ParseRecordList("64k,4k,64k");
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(records.value(), (std::vector<uint64_t>{4 * kKiB, 64 * kKiB}));
  EXPECT_FALSE(ParseRecordList("64q").ok());
  EXPECT_FALSE(ParseRecordList("0").ok());
  EXPECT_FALSE(ParseRecordList("2g").ok());
}

}  // namespace
}  // namespace nasperf
