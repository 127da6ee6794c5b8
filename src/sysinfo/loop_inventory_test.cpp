// Tests of the inventory on real loop devices (root): ext4 on a loop device, and btrfs RAID1
// across two. Every loop device and mount is removed in TearDown, whatever happened.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/inventory_json.h"
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sysinfo/inventory.h"
#include "sysinfo/volume_members.h"
#include "report/inventory_text.h"
#include "testing/loop_device.h"
#include "testing/process.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using nlohmann::ordered_json;
namespace fs = std::filesystem;

using testing::Shell;
using testing::ShellResult;

bool Have(const std::string& tool) { return testing::HaveCommand(tool); }

// Loop devices and mounts come from the toolbox's fixture (testing/loop_device.h); this
// one reports a failed attach or mount and remembers what it made, for the checks and
// for btrfs's device list.
class LoopInventoryTest : public testing::LoopDeviceTest {
 protected:
  void SetUp() override {
    testing::LoopDeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!Have("mkfs.ext4")) NASPERF_SKIP_OR_FAIL_IN_CI("mkfs.ext4 not installed (e2fsprogs)");
  }

  void TearDown() override {
    UnmountAll();
    for (const std::string& loop : loops_) {
      if (btrfs_) Shell("btrfs device scan --forget " + loop);  // only ours: others may be mid-mkfs
    }
    testing::LoopDeviceTest::TearDown();
  }

  // A sparse image file of `bytes` attached to a free loop device; "" after a failure.
  std::string Attach(const std::string& name, uint64_t bytes) {
    std::string loop = testing::LoopDeviceTest::Attach(name, bytes);
    if (loop.empty()) ADD_FAILURE() << error();
    else loops_.push_back(loop);
    return loop;
  }

  bool Mount(const std::string& device, const std::string& type) {
    std::string point = testing::LoopDeviceTest::Mount(device, type);
    if (point.empty()) {
      ADD_FAILURE() << error();
      return false;
    }
    mounts_.push_back(point);
    return true;
  }

  static std::string Name(const std::string& device) { return device.substr(device.rfind('/') + 1); }

  std::vector<std::string> loops_;
  std::vector<std::string> mounts_;
  bool btrfs_ = false;
};

TEST_F(LoopInventoryTest, Ext4OnALoopDevice) {
  constexpr uint64_t kBytes = 64ull << 20;
  std::string loop = Attach("ext4.img", kBytes);
  ASSERT_FALSE(loop.empty());
  ShellResult mkfs = Shell("mkfs.ext4 -q -F " + loop);
  ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
  ASSERT_TRUE(Mount(loop, "ext4"));
  fs::create_directories(mounts_[0] + "/sub");

  ordered_json inventory = InventoryToJson(GatherInventory(mounts_[0] + "/sub"));
  const ordered_json& target = inventory["target"];
  EXPECT_EQ(target["fs"]["type"], "ext4");
  EXPECT_EQ(target["fs"]["mount_point"], mounts_[0]);
  EXPECT_EQ(target["fs"]["source"], loop);
  EXPECT_GT(target["fs"]["free_bytes"].get<uint64_t>(), 0u);
  ASSERT_GE(target["devices"].size(), 1u) << target.dump(2);
  const ordered_json& device = target["devices"][0];
  EXPECT_EQ(device["name"], Name(loop));
  EXPECT_EQ(device["kind"], "loop");
  EXPECT_EQ(device["backing_file"], dir() + "/ext4.img");
  EXPECT_EQ(device["size_bytes"], kBytes);
  EXPECT_EQ(device["logical_block_bytes"], 512);
  // The walk goes on to the device under the image file, when /tmp has one (not on tmpfs).
  if (target["devices"].size() > 1) {
    EXPECT_EQ(device["slaves"][0], target["devices"][1]["name"]);
  }
  EXPECT_TRUE(target["raid"]["kind"].is_null());
  // The volume's member is the loop device, not the disk that holds its image file.
  EXPECT_EQ(sysinfo::VolumeMembers(*GatherInventory(mounts_[0] + "/sub").target), std::vector<std::string>{Name(loop)});
  std::string text = InventoryText(inventory);
  EXPECT_NE(text.find("ext4"), std::string::npos) << text;
  EXPECT_NE(text.find("ext4.img"), std::string::npos) << text;

  // The loop device itself as the target: the device, no file system values.
  ordered_json raw = InventoryToJson(GatherInventory(loop))["target"];
  EXPECT_EQ(raw["kind"], "block_device");
  EXPECT_EQ(raw["devices"][0]["name"], Name(loop));
  EXPECT_EQ(raw["devices"][0]["backing_file"], dir() + "/ext4.img");
  EXPECT_TRUE(raw["fs"]["type"].is_null());
}

TEST_F(LoopInventoryTest, BtrfsRaid1AcrossTwoLoopDevices) {
  if (!Have("mkfs.btrfs")) NASPERF_SKIP_OR_FAIL_IN_CI("mkfs.btrfs not installed (btrfs-progs)");
  if (Shell("grep -qw btrfs /proc/filesystems || modprobe btrfs").exit_code != 0) {
    NASPERF_SKIP_OR_FAIL_IN_CI("the kernel has no btrfs");
  }
  btrfs_ = true;
  constexpr uint64_t kBytes = 256ull << 20;  // mkfs.btrfs wants more than 109 MiB per device
  std::string a = Attach("a.img", kBytes);
  std::string b = Attach("b.img", kBytes);
  ASSERT_FALSE(a.empty() || b.empty());
  ShellResult mkfs = Shell("mkfs.btrfs -q -f -d raid1 -m raid1 " + a + " " + b);
  ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
  ASSERT_TRUE(Mount(a, "btrfs"));

  const ordered_json target = InventoryToJson(GatherInventory(mounts_[0]))["target"];
  EXPECT_EQ(target["fs"]["type"], "btrfs");
  const ordered_json& raid = target["raid"];
  EXPECT_EQ(raid["kind"], "btrfs") << target.dump(2);
  EXPECT_EQ(raid["level"], "raid1");
  EXPECT_EQ(raid["metadata_level"], "raid1");
  std::vector<std::string> expected = {Name(a), Name(b)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(raid["members"], ordered_json(expected));
  EXPECT_EQ(raid["degraded_devices"], 0);
  ASSERT_GE(target["devices"].size(), 2u);
  std::vector<std::string> top = {target["devices"][0]["name"], target["devices"][1]["name"]};
  EXPECT_EQ(top, expected);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(target["devices"][i]["kind"], "loop");
    EXPECT_EQ(target["devices"][i]["size_bytes"], kBytes);
  }
}

// What diagnose's member tests start from: a btrfs raid0 volume names its level and both
// members, and VolumeMembers gives both (the devices agent --allow-volume-members allows).
TEST_F(LoopInventoryTest, BtrfsRaid0AcrossTwoLoopDevicesNamesBothMembers) {
  if (!Have("mkfs.btrfs")) NASPERF_SKIP_OR_FAIL_IN_CI("mkfs.btrfs not installed (btrfs-progs)");
  if (Shell("grep -qw btrfs /proc/filesystems || modprobe btrfs").exit_code != 0) {
    NASPERF_SKIP_OR_FAIL_IN_CI("the kernel has no btrfs");
  }
  btrfs_ = true;
  constexpr uint64_t kBytes = 256ull << 20;
  std::string a = Attach("a.img", kBytes);
  std::string b = Attach("b.img", kBytes);
  ASSERT_FALSE(a.empty() || b.empty());
  ShellResult mkfs = Shell("mkfs.btrfs -q -f -d raid0 -m raid1 " + a + " " + b);
  ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
  ASSERT_TRUE(Mount(a, "btrfs"));

  const Inventory gathered = GatherInventory(mounts_[0]);
  const ordered_json target = InventoryToJson(gathered)["target"];
  const ordered_json& raid = target["raid"];
  EXPECT_EQ(raid["kind"], "btrfs") << target.dump(2);
  EXPECT_EQ(raid["level"], "raid0");
  EXPECT_EQ(raid["metadata_level"], "raid1");
  std::vector<std::string> expected = {Name(a), Name(b)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(raid["members"], ordered_json(expected));
  EXPECT_EQ(raid["degraded_devices"], 0);
  std::vector<std::string> members = sysinfo::VolumeMembers(*gathered.target);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, expected);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(target["devices"][i]["size_bytes"], kBytes);
}

}  // namespace
}  // namespace nasperf
