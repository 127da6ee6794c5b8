// Tests of VolumeMembers on inventories as the walk builds them (top first, then down).
#include "sysinfo/volume_members.h"

#include <gtest/gtest.h>

namespace nasperf::sysinfo {
namespace {

BlockDevice Device(const std::string& name, const std::string& kind, std::vector<std::string> slaves = {}) {
  BlockDevice d;
  d.name = name;
  d.kind = kind;
  d.slaves = std::move(slaves);
  return d;
}

TEST(VolumeMembersTest, ALoopDeviceIsAMemberNotTheDiskUnderItsImageFile) {
  TargetInventory t;
  t.devices = {Device("loop3", "loop", {"sda1"}), Device("sda1", "partition", {"sda"}), Device("sda", "disk")};
  t.raid = RaidFacts{};
  EXPECT_EQ(VolumeMembers(t), (std::vector<std::string>{"loop3"}));
}

TEST(VolumeMembersTest, RaidMembersComeFromTheRaidFacts) {
  TargetInventory t;
  t.devices = {Device("md0", "md", {"sdb1", "sdc1"}), Device("sdb1", "partition", {"sdb"}),
               Device("sdc1", "partition", {"sdc"}), Device("sdb", "disk"), Device("sdc", "disk")};
  t.raid = RaidFacts{};
  t.raid->kind = "md";
  t.raid->members = {"sdb1", "sdc1"};
  EXPECT_EQ(VolumeMembers(t), (std::vector<std::string>{"sdb1", "sdc1"}));
}

TEST(VolumeMembersTest, LvmOnAnMdArrayIsTheArraysMembers) {
  TargetInventory t;
  t.devices = {Device("dm-0", "dm", {"md0"}), Device("md0", "md", {"sdb", "sdc"}), Device("sdb", "disk"),
               Device("sdc", "disk")};
  t.raid = RaidFacts{};
  EXPECT_EQ(VolumeMembers(t), (std::vector<std::string>{"sdb", "sdc"}));
}

TEST(VolumeMembersTest, LvmAcrossTwoPartitionsIsBoth) {
  TargetInventory t;
  t.devices = {Device("dm-1", "dm", {"sda2", "sdb1"}), Device("sda2", "partition", {"sda"}),
               Device("sdb1", "partition", {"sdb"})};
  EXPECT_EQ(VolumeMembers(t), (std::vector<std::string>{"sda2", "sdb1"}));
}

TEST(VolumeMembersTest, NoDevicesNoMembers) {
  TargetInventory t;
  t.raid = RaidFacts{};
  EXPECT_TRUE(VolumeMembers(t).empty());
  t.devices = {Device("dm-2", "dm", {"dm-2"})};  // a cycle in bad data ends
  EXPECT_TRUE(VolumeMembers(t).empty());
}

}  // namespace
}  // namespace nasperf::sysinfo
