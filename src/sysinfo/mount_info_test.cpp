// Tests of the mountinfo parser and the mount lookup, on inline fixtures.
#include "sysinfo/mount_info.h"

#include <gtest/gtest.h>

namespace nasperf::sysinfo {
namespace {

constexpr const char* kMountInfo =
    "26 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
    "43 26 0:38 / /srv/pool rw,relatime shared:30 master:2 - btrfs /dev/loop0 rw,space_cache=v2,subvolid=5,subvol=/\n"
    "44 26 0:45 /exports/home /home/alice\\040smith rw,nosuid - ext4 /dev/sdb1 rw\n"
    "45 26 0:50 / /mnt/nas rw,relatime - nfs4 nas.lan:/volume1 rw,vers=4.2,rsize=1048576,addr=198.18.0.2\n"
    "46 26 0:51 / /mnt/share rw - cifs //198.18.0.3/public rw,vers=3.1.1,addr=198.18.0.3\n"
    "garbage line\n"
    "47 26 0:52 / /srv rw - tmpfs tmpfs rw,size=1024k\n"
    "48 26 0:53 / /srv rw - tmpfs other rw,size=2048k\n";

TEST(MountInfo, ParsesFieldsOptionalTagsAndEscapes) {
  std::vector<MountEntry> mounts = ParseMountInfo(kMountInfo);
  ASSERT_EQ(mounts.size(), 7u);
  EXPECT_EQ(mounts[0].major, 254u);
  EXPECT_EQ(mounts[0].minor, 0u);
  EXPECT_EQ(mounts[0].mount_point, "/");
  EXPECT_EQ(mounts[0].fs_type, "ext4");
  EXPECT_EQ(mounts[0].source, "/dev/vda");
  EXPECT_EQ(mounts[0].super_options, "rw,discard");

  EXPECT_EQ(mounts[1].fs_type, "btrfs");  // two optional fields before "-"
  EXPECT_EQ(mounts[1].major, 0u);
  EXPECT_EQ(mounts[1].minor, 38u);
  EXPECT_EQ(mounts[1].source, "/dev/loop0");

  EXPECT_EQ(mounts[2].mount_point, "/home/alice smith");  // \040 is a space
  EXPECT_EQ(mounts[2].root, "/exports/home");
  EXPECT_EQ(mounts[2].mount_options, "rw,nosuid");
}

TEST(MountInfo, FindsTheLongestAndTopmostMount) {
  std::vector<MountEntry> mounts = ParseMountInfo(kMountInfo);
  EXPECT_EQ(FindMount(mounts, "/srv/pool/data/x")->fs_type, "btrfs");
  EXPECT_EQ(FindMount(mounts, "/srv/pool")->fs_type, "btrfs");
  EXPECT_EQ(FindMount(mounts, "/srv/poolside")->source, "other");  // not under /srv/pool; the later /srv covers
  EXPECT_EQ(FindMount(mounts, "/home/alice smith/doc")->source, "/dev/sdb1");
  EXPECT_EQ(FindMount(mounts, "/usr/bin")->source, "/dev/vda");
  EXPECT_FALSE(FindMount(mounts, "relative").has_value());
  EXPECT_FALSE(FindMount({}, "/x").has_value());
}

TEST(MountInfo, MergesOptionsAndReadsValues) {
  std::vector<MountEntry> mounts = ParseMountInfo(kMountInfo);
  EXPECT_EQ(MergedOptions(mounts[0]), "rw,relatime,discard");
  EXPECT_EQ(OptionValue(MergedOptions(mounts[3]), "addr"), "198.18.0.2");
  EXPECT_EQ(OptionValue("rw,vers=4.2", "vers"), "4.2");
  EXPECT_FALSE(OptionValue("rw,vers=4.2", "ver").has_value());
  EXPECT_FALSE(OptionValue("", "addr").has_value());
}

TEST(MountInfo, EmptyAndTruncatedInputGiveNothing) {
  EXPECT_TRUE(ParseMountInfo("").empty());
  EXPECT_TRUE(ParseMountInfo("26 1 254:0 / / rw\n").empty());
  EXPECT_TRUE(ParseMountInfo("26 1 x:y / / rw - ext4 /dev/vda rw\n").empty());
}

}  // namespace
}  // namespace nasperf::sysinfo
