// The filler on a real file system: a 64 MiB ext4 image on a loop device (root; skipped
// otherwise, a failure under CI), so the percent arithmetic meets statfs, ext4's metadata
// and its reserved blocks for real, through the local AppFileSystem.
#include <gtest/gtest.h>
#include <sys/statvfs.h>

#include "proto/open_app_fs.h"
#include "suite/fill_volume.h"
#include "testing/loop_device.h"
#include "testing/process.h"
#include "testing/skip.h"

namespace nasperf {
namespace {

class FillVolumeExt4 : public testing::LoopDeviceTest {
 protected:
  void SetUp() override {
    LoopDeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!testing::HaveCommand("mkfs.ext4")) NASPERF_SKIP_OR_FAIL_IN_CI("mkfs.ext4 not installed (e2fsprogs)");
    const std::string device = Attach("fill.img", 64u << 20);
    ASSERT_NE(device, "") << error();
    // The default 5 % root reserve kept: the fill must count it as used, like df.
    testing::ShellResult mkfs = testing::Shell("mkfs.ext4 -q -F " + device);
    ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
    mnt_ = Mount(device, "ext4");
    ASSERT_NE(mnt_, "") << error();
  }

  // The level as df computes it, from statvfs directly.
  double DfPercent() const {
    struct statvfs st {};
    EXPECT_EQ(::statvfs(mnt_.c_str(), &st), 0);
    const double total = static_cast<double>(st.f_blocks) * st.f_frsize;
    return 100.0 * (total - static_cast<double>(st.f_bavail) * st.f_frsize) / total;
  }

  size_t Entries() const {
    testing::ShellResult ls = testing::Shell("ls -A " + mnt_ + " | grep -v '^lost+found$' | wc -l");
    return std::stoul(ls.output);
  }

  std::string mnt_;
};

TEST_F(FillVolumeExt4, FillsToTheLevelStatfsMeasuresAndRemovesEverything) {
  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(mnt_, TargetOptions{});
  ASSERT_TRUE(fs.ok()) << fs.status().message();
  const double before = DfPercent();
  ASSERT_LT(before, 20);  // a fresh ext4: its metadata and the 5 % reserve
  {
    VolumeFiller filler(*fs.value(), 3, 16u << 20, 1u << 20);
    Result<FillOutcome> out = filler.Fill(50, 0);
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_NEAR(out.value().before_pct, before, 0.5);
    // Within one 1 MiB request (1.6 % of 64 MiB) plus ext4's indirect blocks, never below.
    EXPECT_GE(out.value().achieved_pct, 50 - 1.6);
    EXPECT_LE(out.value().achieved_pct, 51);
    EXPECT_NEAR(DfPercent(), out.value().achieved_pct, 0.1);
    EXPECT_GE(out.value().files, 2u);  // 16 MiB files
    // Topping up to a higher level adds files; the level is again what statfs says.
    Result<FillOutcome> more = filler.Fill(75, 0);
    ASSERT_TRUE(more.ok()) << more.status().message();
    EXPECT_NEAR(DfPercent(), more.value().achieved_pct, 0.1);
    EXPECT_GE(more.value().achieved_pct, 75 - 1.6);
    ASSERT_TRUE(filler.Remove().ok());
    EXPECT_NEAR(DfPercent(), before, 0.5);
  }
  ASSERT_TRUE(fs.value()->RemoveWorkspace().ok());
  EXPECT_EQ(Entries(), 0u);
}

TEST_F(FillVolumeExt4, RefusesALevelThatWouldLeaveLessThanFivePercentAndWritesNothing) {
  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(mnt_, TargetOptions{});
  ASSERT_TRUE(fs.ok()) << fs.status().message();
  const double before = DfPercent();
  VolumeFiller filler(*fs.value(), 3, 16u << 20, 1u << 20);
  // 80 % and a 10 MiB dataset (15.6 %) leave under 5 %.
  Result<FillOutcome> out = filler.Fill(80, 10u << 20);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(out.status().message().find("too small"), std::string::npos) << out.status().message();
  EXPECT_NEAR(DfPercent(), before, 0.01);
}

}  // namespace
}  // namespace nasperf
