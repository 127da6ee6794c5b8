// Tests of the /proc/mdstat parser: kernel md does not run here, so these fixtures are md's only test.
#include "sysinfo/mdstat.h"

#include <gtest/gtest.h>

namespace nasperf::sysinfo {
namespace {

// As md_seq_show prints it: a degraded RAID5 with a bitmap, a RAID1 with a failed member,
// a read-only RAID0, a linear array and an inactive array of spares.
constexpr const char* kMdstatTwoArrays =
    "Personalities : [raid1] [raid6] [raid5] [raid4] [raid0] [linear]\n"
    "md127 : active raid5 sdd1[3] sdb1[0] sdc1[1]\n"
    "      1953260544 blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/3] [UU_U]\n"
    "      bitmap: 2/8 pages [8KB], 65536KB chunk\n"
    "\n"
    "md0 : active raid1 sdb2[1](F) sda2[0]\n"
    "      976630464 blocks super 1.2 [2/1] [U_]\n"
    "      [==>..................]  recovery = 12.6% (123456/976630464) finish=80.1min speed=100000K/sec\n"
    "\n"
    "md1 : active (auto-read-only) raid0 nvme1n1[1] nvme0n1[0]\n"
    "      1000000000 blocks super 1.2 64k chunks\n"
    "\n"
    "md2 : active linear sde[0] sdf[1]\n"
    "      2000 blocks super 1.2 0k rounding\n"
    "\n"
    "md3 : inactive sdg1[0](S) sdh1[1](S)\n"
    "      3906764976 blocks super 1.2\n"
    "\n"
    "md4 : active raid10 sda3[0] sdb3[1] sdc3[2] sdd3[3]\n"
    "      2000 blocks super 1.2 512K chunks 2 near-copies [4/4] [UUUU]\n"
    "\n"
    "unused devices: <none>\n";

TEST(Mdstat, ParsesLevelsMembersHealthAndChunk) {
  std::vector<MdArray> arrays = ParseMdstat(kMdstatTwoArrays);
  ASSERT_EQ(arrays.size(), 6u);

  const MdArray& raid5 = arrays[0];
  EXPECT_EQ(raid5.name, "md127");
  EXPECT_EQ(raid5.state, "active");
  EXPECT_EQ(raid5.level, "raid5");
  EXPECT_EQ(raid5.members, (std::vector<std::string>{"sdb1", "sdc1", "sdd1"}));  // by role
  EXPECT_EQ(raid5.devices_wanted, 4);
  EXPECT_EQ(raid5.devices_working, 3);
  EXPECT_EQ(raid5.chunk_bytes, 512u * 1024);  // not the bitmap's 65536KB chunk
  EXPECT_TRUE(raid5.failed.empty());

  const MdArray& raid1 = arrays[1];
  EXPECT_EQ(raid1.level, "raid1");
  EXPECT_EQ(raid1.members, (std::vector<std::string>{"sda2", "sdb2"}));
  EXPECT_EQ(raid1.failed, (std::vector<std::string>{"sdb2"}));
  EXPECT_EQ(raid1.devices_wanted, 2);
  EXPECT_EQ(raid1.devices_working, 1);
  EXPECT_FALSE(raid1.chunk_bytes.has_value());

  const MdArray& raid0 = arrays[2];
  EXPECT_EQ(raid0.level, "raid0");  // after "(auto-read-only)"
  EXPECT_EQ(raid0.members, (std::vector<std::string>{"nvme0n1", "nvme1n1"}));
  EXPECT_EQ(raid0.chunk_bytes, 64u * 1024);
  EXPECT_FALSE(raid0.devices_wanted.has_value());  // RAID0 prints no [n/m]

  EXPECT_EQ(arrays[3].level, "linear");
  EXPECT_FALSE(arrays[3].chunk_bytes.has_value());

  const MdArray& inactive = arrays[4];
  EXPECT_EQ(inactive.state, "inactive");
  EXPECT_FALSE(inactive.level.has_value());
  EXPECT_EQ(inactive.members, (std::vector<std::string>{"sdg1", "sdh1"}));
  EXPECT_EQ(inactive.spares, (std::vector<std::string>{"sdg1", "sdh1"}));

  const MdArray& raid10 = arrays[5];
  EXPECT_EQ(raid10.level, "raid10");
  EXPECT_EQ(raid10.members.size(), 4u);
  EXPECT_EQ(raid10.chunk_bytes, 512u * 1024);
  EXPECT_EQ(raid10.devices_working, 4);
}

TEST(Mdstat, NoArraysAndGarbageGiveNothing) {
  EXPECT_TRUE(ParseMdstat("Personalities : \nunused devices: <none>\n").empty());
  EXPECT_TRUE(ParseMdstat("").empty());
  EXPECT_TRUE(ParseMdstat("md0 :\nmd0 : broken\n[[[\n").empty());
}

}  // namespace
}  // namespace nasperf::sysinfo
