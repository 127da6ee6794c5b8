// Tests of the dirty-limit reader on fixture text.
#include "sysinfo/dirty_limits.h"

#include <gtest/gtest.h>

#include "testing/fake_root.h"

namespace nasperf::sysinfo {
namespace {

constexpr const char* kMeminfo =
    "MemTotal:       16303444 kB\n"
    "MemFree:         2093056 kB\n"
    "MemAvailable:   10485760 kB\n"
    "Buffers:          412412 kB\n";

TEST(DirtyLimits, RatioOfAvailableMemory) {
  std::optional<DirtyLimits> d = ParseDirtyLimits("20\n", "0\n", kMeminfo);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->dirty_ratio_pct, 20u);
  EXPECT_EQ(d->mem_available_bytes, 10485760ull * 1024);
  EXPECT_EQ(d->limit_bytes(), 10485760ull * 1024 / 100 * 20);  // 2 GiB
}

TEST(DirtyLimits, BytesWinOverTheRatio) {
  std::optional<DirtyLimits> d = ParseDirtyLimits("20\n", "268435456\n", kMeminfo);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->limit_bytes(), 268435456u);
}

TEST(DirtyLimits, MissingOrDamagedFiguresAreNotGuessed) {
  EXPECT_FALSE(ParseDirtyLimits("", "0", kMeminfo));
  EXPECT_FALSE(ParseDirtyLimits("twenty", "0", kMeminfo));
  EXPECT_FALSE(ParseDirtyLimits("120", "0", kMeminfo));
  EXPECT_FALSE(ParseDirtyLimits("20", "-5", kMeminfo));
  EXPECT_FALSE(ParseDirtyLimits("20", "0", "MemTotal: 16303444 kB\n"));
  EXPECT_FALSE(ParseDirtyLimits("20", "0", "MemAvailable: lots\n"));
  EXPECT_TRUE(ParseDirtyLimits("20", "", kMeminfo)) << "an absent dirty_bytes means the ratio applies";
}

TEST(DirtyLimits, ReadsTheProcFiles) {
  testing::FakeRoot root;
  root.Write("/proc/sys/vm/dirty_ratio", "10\n");
  root.Write("/proc/sys/vm/dirty_bytes", "0\n");
  root.Write("/proc/meminfo", kMeminfo);
  std::optional<DirtyLimits> d = ReadDirtyLimits(root.path());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->limit_bytes(), 10485760ull * 1024 / 100 * 10);
  testing::FakeRoot empty;
  EXPECT_FALSE(ReadDirtyLimits(empty.path()));
}

}  // namespace
}  // namespace nasperf::sysinfo
