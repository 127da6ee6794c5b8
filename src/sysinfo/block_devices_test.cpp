// Tests of the block-device walk and RAID detection on a fake sysfs: dm over md RAID1 over
// partitions, a loop device, a btrfs RAID1 — layouts this machine's kernel cannot build.
#include "sysinfo/block_devices.h"

#include <gtest/gtest.h>

#include "model/inventory_json.h"
#include "testing/fake_root.h"
#include "sysinfo/raid_info.h"
#include "sysinfo/storage_info.h"

namespace nasperf::sysinfo {
namespace {

using nlohmann::ordered_json;

constexpr const char* kMdstat =
    "Personalities : [raid1]\n"
    "md0 : active raid1 sdb1[1](F) sda1[0]\n"
    "      3906885632 blocks super 1.2 [2/1] [U_]\n"
    "      bitmap: 0/30 pages [0KB], 65536KB chunk\n"
    "\n"
    "unused devices: <none>\n";

// Two SATA disks with one partition each, md0 (RAID1) on the partitions, dm-0 (LVM) on md0,
// loop0 backed by a file, and a btrfs RAID1 over loop0 and loop1.
class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    Disk("sda", "8:0", "WDC WD40EFRX-68N32N0", "1", "mq-deadline kyber [bfq] none", "512", "4096");
    Partition("sda", "sda1", "8:1");
    Disk("sdb", "8:16", "ST4000VN008-2DR166", "1", "[mq-deadline] none", "512", "4096");
    Partition("sdb", "sdb1", "8:17");

    Virtual("md0", "9:0", "7813771264");
    root_.Write("/sys/devices/virtual/block/md0/md/level", "raid1\n");
    root_.Write("/sys/devices/virtual/block/md0/md/degraded", "1\n");
    root_.Write("/sys/devices/virtual/block/md0/md/chunk_size", "0\n");
    root_.Link("/sys/devices/virtual/block/md0/slaves/sda1", "/sys/devices/pci0/ata1/block/sda/sda1");
    root_.Link("/sys/devices/virtual/block/md0/slaves/sdb1", "/sys/devices/pci0/ata1/block/sdb/sdb1");
    root_.Link("/sys/block/md0", "/sys/devices/virtual/block/md0");
    root_.Write("/proc/mdstat", kMdstat);

    Virtual("dm-0", "253:0", "2000000000");
    root_.Write("/sys/devices/virtual/block/dm-0/dm/name", "vg-data\n");
    root_.Link("/sys/devices/virtual/block/dm-0/slaves/md0", "/sys/devices/virtual/block/md0");

    Virtual("loop0", "7:0", "524288");
    root_.Write("/sys/devices/virtual/block/loop0/loop/backing_file", "/srv/images/a.img\n");
    Virtual("loop1", "7:1", "524288");
    root_.Write("/sys/devices/virtual/block/loop1/loop/backing_file", "/srv/images/b.img\n");

    std::string btrfs = "/sys/fs/btrfs/0b5e2c4d-1111-2222-3333-444455556666";
    root_.MakeDir(btrfs + "/allocation/data/raid1");
    root_.MakeDir(btrfs + "/allocation/metadata/raid1c3");
    root_.Link(btrfs + "/devices/loop0", "/sys/devices/virtual/block/loop0");
    root_.Link(btrfs + "/devices/loop1", "/sys/devices/virtual/block/loop1");
    root_.Write(btrfs + "/devinfo/1/missing", "0\n");
    root_.Write(btrfs + "/devinfo/2/missing", "0\n");
  }

  void Disk(const std::string& name, const std::string& dev, const std::string& model, const std::string& rotational,
            const std::string& scheduler, const std::string& logical, const std::string& physical) {
    std::string dir = "/sys/devices/pci0/ata1/block/" + name;
    root_.Write(dir + "/dev", dev + "\n");
    root_.Write(dir + "/size", "7814037168\n");
    root_.Write(dir + "/device/model", model + "    \n");  // SCSI pads models with spaces
    root_.Write(dir + "/queue/rotational", rotational + "\n");
    root_.Write(dir + "/queue/scheduler", scheduler + "\n");
    root_.Write(dir + "/queue/logical_block_size", logical + "\n");
    root_.Write(dir + "/queue/physical_block_size", physical + "\n");
    root_.Link("/sys/dev/block/" + dev, dir);
  }
  void Partition(const std::string& disk, const std::string& name, const std::string& dev) {
    std::string dir = "/sys/devices/pci0/ata1/block/" + disk + "/" + name;
    root_.Write(dir + "/dev", dev + "\n");
    root_.Write(dir + "/partition", "1\n");
    root_.Write(dir + "/size", "7814035087\n");
    root_.Link("/sys/dev/block/" + dev, dir);
  }
  void Virtual(const std::string& name, const std::string& dev, const std::string& sectors) {
    std::string dir = "/sys/devices/virtual/block/" + name;
    root_.Write(dir + "/dev", dev + "\n");
    root_.Write(dir + "/size", sectors + "\n");
    root_.Write(dir + "/queue/rotational", "0\n");
    root_.Write(dir + "/queue/scheduler", "none\n");
    root_.Write(dir + "/queue/logical_block_size", "512\n");
    root_.Write(dir + "/queue/physical_block_size", "512\n");
    if (name.rfind("md", 0) == 0) root_.MakeDir(dir + "/md");
    if (name.rfind("dm-", 0) == 0) root_.MakeDir(dir + "/dm");
    root_.Link("/sys/dev/block/" + dev, dir);
  }

  static std::vector<std::string> Names(const ordered_json& devices) {
    std::vector<std::string> names;
    for (const ordered_json& d : devices) names.push_back(d["name"].get<std::string>());
    return names;
  }

  testing::FakeRoot root_;
};

TEST_F(FakeSysfs, WalksDmOverMdOverPartitionsDownToDisks) {
  ordered_json devices = InventoryToJson(WalkBlockDevices({"253:0"}, root_.path(), nullptr));
  ASSERT_EQ(Names(devices), (std::vector<std::string>{"dm-0", "md0", "sda1", "sdb1", "sda", "sdb"}));
  EXPECT_EQ(devices[0]["kind"], "dm");
  EXPECT_EQ(devices[0]["slaves"], ordered_json::array({"md0"}));
  EXPECT_EQ(devices[0]["scheduler"], "none");
  EXPECT_TRUE(devices[0]["model"].is_null());
  EXPECT_EQ(devices[1]["kind"], "md");
  EXPECT_EQ(devices[1]["slaves"], ordered_json::array({"sda1", "sdb1"}));

  const ordered_json& sda1 = devices[2];
  EXPECT_EQ(sda1["kind"], "partition");
  EXPECT_EQ(sda1["slaves"], ordered_json::array({"sda"}));
  EXPECT_EQ(sda1["size_bytes"], 7814035087ull * 512);
  // The disk's queue and model, which the partition shares.
  EXPECT_EQ(sda1["model"], "WDC WD40EFRX-68N32N0");
  EXPECT_EQ(sda1["rotational"], true);
  EXPECT_EQ(sda1["scheduler"], "bfq");
  EXPECT_EQ(sda1["physical_block_bytes"], 4096);

  const ordered_json& sdb = devices[5];
  EXPECT_EQ(sdb["kind"], "disk");
  EXPECT_EQ(sdb["model"], "ST4000VN008-2DR166");
  EXPECT_EQ(sdb["scheduler"], "mq-deadline");
  EXPECT_EQ(sdb["logical_block_bytes"], 512);
  EXPECT_EQ(sdb["size_bytes"], 7814037168ull * 512);
  EXPECT_EQ(sdb["slaves"], ordered_json::array());
  EXPECT_TRUE(sdb["backing_file"].is_null());
}

TEST_F(FakeSysfs, LoopLeadsThroughItsBackingFileAndEachDeviceAppearsOnce) {
  std::vector<std::string> asked;
  FileDevicesFn on_sda = [&](const std::string& path) {
    asked.push_back(path);
    return std::vector<std::string>{"8:0"};
  };
  ordered_json devices = InventoryToJson(WalkBlockDevices({"7:0", "7:1"}, root_.path(), on_sda));
  ASSERT_EQ(Names(devices), (std::vector<std::string>{"loop0", "loop1", "sda"}));
  EXPECT_EQ(devices[0]["kind"], "loop");
  EXPECT_EQ(devices[0]["backing_file"], "/srv/images/a.img");
  EXPECT_EQ(devices[0]["slaves"], ordered_json::array({"sda"}));
  EXPECT_EQ(devices[0]["size_bytes"], 524288 * 512);
  EXPECT_EQ(devices[0]["rotational"], false);
  EXPECT_EQ(asked, (std::vector<std::string>{"/srv/images/a.img", "/srv/images/b.img"}));
}

TEST_F(FakeSysfs, MissingDevicesAndFilesGiveNullsNotGuesses) {
  EXPECT_TRUE(WalkBlockDevices({"99:99"}, root_.path(), nullptr).empty());
  root_.Write("/sys/devices/virtual/block/zram0/dev", "252:0\n");
  root_.Link("/sys/dev/block/252:0", "/sys/devices/virtual/block/zram0");
  ordered_json devices = InventoryToJson(WalkBlockDevices({"252:0"}, root_.path(), nullptr));
  ASSERT_EQ(devices.size(), 1u);
  for (const char* key : {"model", "size_bytes", "rotational", "scheduler", "logical_block_bytes",
                          "physical_block_bytes", "backing_file"}) {
    EXPECT_TRUE(devices[0][key].is_null()) << key;
  }
  EXPECT_EQ(devices[0]["kind"], "disk");
}

TEST_F(FakeSysfs, MdRaidFromSysfsAndMdstat) {
  StorageStack stack = DescribeStack({"253:0"}, std::nullopt, root_.path(), nullptr);
  const ordered_json& raid = InventoryToJson(stack.raid);
  EXPECT_EQ(raid["kind"], "md");
  EXPECT_EQ(raid["level"], "raid1");
  EXPECT_EQ(raid["members"], ordered_json::array({"sda1", "sdb1"}));  // mdstat, by role
  EXPECT_EQ(raid["degraded_devices"], 1);
  EXPECT_TRUE(raid["chunk_bytes"].is_null());  // RAID1 has no chunk; the bitmap's chunk is not it
  EXPECT_TRUE(raid["metadata_level"].is_null());
}

TEST_F(FakeSysfs, MdRaidWithoutMdstatUsesSlaves) {
  std::filesystem::remove(root_.path() + "/proc/mdstat");
  std::filesystem::remove(root_.path() + "/sys/devices/virtual/block/md0/md/degraded");
  std::optional<ordered_json> raid;
  if (std::optional<RaidFacts> md = MdRaid(WalkBlockDevices({"9:0"}, root_.path(), nullptr), root_.path())) {
    raid = InventoryToJson(*md);
  }
  ASSERT_TRUE(raid.has_value());
  EXPECT_EQ((*raid)["level"], "raid1");
  EXPECT_EQ((*raid)["members"], ordered_json::array({"sda1", "sdb1"}));
  EXPECT_TRUE((*raid)["degraded_devices"].is_null());
}

TEST_F(FakeSysfs, BtrfsProfilesMembersAndMissingDevices) {
  std::string uuid = "0b5e2c4d-1111-2222-3333-444455556666";
  StorageStack stack = DescribeStack({"7:0", "7:1"}, uuid, root_.path(), nullptr);
  EXPECT_EQ(InventoryToJson(stack.raid)["kind"], "btrfs");
  EXPECT_EQ(InventoryToJson(stack.raid)["level"], "raid1");
  EXPECT_EQ(InventoryToJson(stack.raid)["metadata_level"], "raid1c3");
  EXPECT_EQ(InventoryToJson(stack.raid)["members"], ordered_json::array({"loop0", "loop1"}));
  EXPECT_EQ(InventoryToJson(stack.raid)["degraded_devices"], 0);

  root_.Write("/sys/fs/btrfs/" + uuid + "/devinfo/2/missing", "1\n");
  root_.MakeDir("/sys/fs/btrfs/" + uuid + "/allocation/data/single");  // a balance converting profiles
  ordered_json raid = InventoryToJson(BtrfsRaid(uuid, root_.path()));
  EXPECT_EQ(raid["degraded_devices"], 1);
  EXPECT_EQ(raid["level"], "single,raid1");
}

TEST_F(FakeSysfs, SingleProfileBtrfsOnMdReportsTheMdArray) {
  std::string uuid = "77777777-1111-2222-3333-444455556666";
  root_.MakeDir("/sys/fs/btrfs/" + uuid + "/allocation/data/single");
  root_.Link("/sys/fs/btrfs/" + uuid + "/devices/md0", "/sys/devices/virtual/block/md0");
  StorageStack stack = DescribeStack({"9:0"}, uuid, root_.path(), nullptr);
  EXPECT_EQ(InventoryToJson(stack.raid)["kind"], "md");
  EXPECT_EQ(InventoryToJson(stack.raid)["level"], "raid1");
}

TEST_F(FakeSysfs, NoRaidIsAllNull) {
  StorageStack stack = DescribeStack({"8:0"}, std::nullopt, root_.path(), nullptr);
  EXPECT_EQ(stack.raid, NoRaid());
  EXPECT_TRUE(InventoryToJson(stack.raid)["kind"].is_null());
  EXPECT_EQ(InventoryToJson(stack.raid)["members"], ordered_json::array());
}

TEST(Scheduler, PicksTheBracketedOne) {
  EXPECT_EQ(ParseScheduler("none [mq-deadline] kyber bfq"), "mq-deadline");
  EXPECT_EQ(ParseScheduler("[none] mq-deadline"), "none");
  EXPECT_EQ(ParseScheduler("none"), "none");
  EXPECT_FALSE(ParseScheduler("").has_value());
  EXPECT_FALSE(ParseScheduler("none mq-deadline").has_value());  // no choice marked: unknown
}

}  // namespace
}  // namespace nasperf::sysinfo
