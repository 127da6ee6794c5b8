// Fill levels: the percent parsing and arithmetic, and the filler's loop (write, sync,
// measure by statfs again) on a volume in memory; fill_volume_ext4_test.cpp does it on a
// real ext4 file system.
#include "suite/fill_volume.h"

#include <gtest/gtest.h>

#include "base/signals.h"
#include "testing/timed_memory_app_fs.h"

namespace nasperf {
namespace {

TEST(FillVolume, ParsesPercentagesBelowNinetyFive) {
  EXPECT_DOUBLE_EQ(ParseFillPercent("33").value(), 33);
  EXPECT_DOUBLE_EQ(ParseFillPercent("33%").value(), 33);
  EXPECT_DOUBLE_EQ(ParseFillPercent("0").value(), 0);
  EXPECT_DOUBLE_EQ(ParseFillPercent("94.5").value(), 94.5);
  for (const char* bad : {"95", "95%", "100", "-1", "", "%", "abc", "33%%", " 33", "33 ", "nan", "inf", "1e400"}) {
    Result<double> r = ParseFillPercent(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << bad;
    EXPECT_NE(r.status().message().find("--fill"), std::string::npos) << r.status().message();
  }
  EXPECT_NE(ParseFillPercent("95").status().message().find("5 % of the volume free"), std::string::npos);
}

TEST(FillVolume, ParsesALevelList) {
  EXPECT_EQ(ParseFillLevels("0,33,66").value(), (std::vector<double>{0, 33, 66}));
  EXPECT_EQ(ParseFillLevels("50%").value(), (std::vector<double>{50}));
  EXPECT_FALSE(ParseFillLevels("0,,66").ok());
  EXPECT_FALSE(ParseFillLevels("0,33,99").ok());
  EXPECT_FALSE(ParseFillLevels("").ok());
}

TEST(FillVolume, PercentCountsReservedBlocksAsUsed) {
  EXPECT_DOUBLE_EQ(FillPercentOf({1000, 670}), 33.0);
  EXPECT_DOUBLE_EQ(FillPercentOf({1000, 0}), 100.0);
  EXPECT_DOUBLE_EQ(FillPercentOf({0, 0}), 0.0);
}

TEST(FillVolume, BytesNeededReachTheLevelAndKeepFivePercentFree) {
  const AppSpace space{1'000'000, 900'000};  // 10 % full
  EXPECT_EQ(FillBytesNeeded(space, 33, 0, "t").value(), 230'000u);
  EXPECT_EQ(FillBytesNeeded(space, 5, 0, "t").value(), 0u);  // fuller already: nothing to write
  EXPECT_EQ(FillBytesNeeded(space, 94, 0, "t").value(), 840'000u);
  // 66 % plus a 300 kB dataset leaves 4 % free: too small.
  Result<uint64_t> tight = FillBytesNeeded(space, 66, 300'000, "t");
  ASSERT_FALSE(tight.ok());
  EXPECT_EQ(tight.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(tight.status().message().find("t: too small"), std::string::npos) << tight.status().message();
  EXPECT_TRUE(FillBytesNeeded(space, 66, 290'000, "t").ok());  // exactly 5 % left
  EXPECT_FALSE(FillBytesNeeded(space, 95, 0, "t").ok());
  EXPECT_FALSE(FillBytesNeeded({1'000'000, 40'000}, 0, 0, "t").ok());  // 96 % full already
}

TEST(FillVolume, FillsToTheLevelWithUniqueFilesAndRemovesThem) {
  testing::TimedMemoryAppFs fs(400u << 20);
  fs.base_used_bytes = 40u << 20;  // 10 %
  {
    VolumeFiller filler(fs, 3, 64u << 20, 1u << 20);
    Result<FillOutcome> out = filler.Fill(33, 0);
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_DOUBLE_EQ(out.value().before_pct, 10);
    EXPECT_NEAR(out.value().achieved_pct, 33, 0.25);  // within one 1 MiB request of 400 MiB
    EXPECT_EQ(out.value().files, 2u);                 // 92 MiB in 64 MiB files
    EXPECT_EQ(fs.files().size(), 2u);
    EXPECT_NE(fs.files().at("fill/000000"), fs.files().at("fill/000001"));
    EXPECT_EQ(fs.syncs, 2);
    EXPECT_NEAR(FillPercentOf(fs.Space().value()), out.value().achieved_pct, 1e-9);
    EXPECT_NE(FillNote(out.value()).find("volume filled to 33.0 %"), std::string::npos) << FillNote(out.value());
  }
  EXPECT_TRUE(fs.files().empty());  // removed by the filler's destructor
  EXPECT_TRUE(fs.dirs().empty());
}

TEST(FillVolume, RefusesBeforeWritingAnything) {
  testing::TimedMemoryAppFs fs(100u << 20);
  VolumeFiller filler(fs, 3, 64u << 20, 1u << 20);
  Result<FillOutcome> out = filler.Fill(90, 10u << 20);  // 90 % + 10 % of dataset
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().kind(), ErrorKind::kBadInput);
  EXPECT_TRUE(fs.files().empty());
  EXPECT_TRUE(fs.dirs().empty());
}

TEST(FillVolume, CtrlCStopsTheFillAndItsFilesAreRemoved) {
  testing::TimedMemoryAppFs fs(400u << 20);
  InstallInterruptHandler();
  ClearInterrupt();
  std::raise(SIGINT);
  {
    VolumeFiller filler(fs, 3, 64u << 20, 1u << 20);
    Result<FillOutcome> out = filler.Fill(50, 0);
    EXPECT_EQ(out.status().kind(), ErrorKind::kInterrupted);
    EXPECT_EQ(fs.files().size(), 1u);  // the file it had created
  }
  ClearInterrupt();
  EXPECT_TRUE(fs.files().empty());
  EXPECT_TRUE(fs.dirs().empty());
}

}  // namespace
}  // namespace nasperf
