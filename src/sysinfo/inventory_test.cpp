// Tests of the inventory document, its flat key/value form and its text.
#include "sysinfo/inventory.h"

#include <gtest/gtest.h>

#include "model/inventory_json.h"
#include "report/inventory_text.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using nlohmann::ordered_json;
using Flat = std::vector<std::pair<std::string, std::string>>;

TEST(Inventory, NullTargetHasOnlyHostFacts) {
  ordered_json inventory = InventoryToJson(GatherInventory("null:"));
  EXPECT_TRUE(inventory.contains("host"));
  EXPECT_FALSE(inventory.contains("target"));
  EXPECT_EQ(inventory.size(), 1u);
}

TEST(Inventory, PathTargetHasHostAndTarget) {
  testing::TempDir dir;
  ordered_json inventory = InventoryToJson(GatherInventory(dir.path()));
  ASSERT_TRUE(inventory.contains("target"));
  EXPECT_TRUE(inventory["target"]["fs"]["type"].is_string());
  EXPECT_TRUE(inventory["host"]["cpu"]["model"].is_string());
}

TEST(Inventory, LiveInventoryRoundTripsThroughItsJson) {
  testing::TempDir dir;
  for (const std::string& target : {std::string("null:"), dir.path(), std::string("smb://u@127.0.0.1/share")}) {
    Inventory gathered = GatherInventory(target);
    ordered_json json = InventoryToJson(gathered);
    Inventory decoded = InventoryFromJson(json);
    EXPECT_EQ(decoded, gathered) << target;
    EXPECT_EQ(InventoryToJson(decoded).dump(2), json.dump(2)) << target;
    EXPECT_EQ(InventoryText(json), InventoryText(gathered)) << target;
  }
}

TEST(Inventory, FlattenGivesDottedKeysAndUnknownForNull) {
  ordered_json inventory = ordered_json::parse(R"json({
    "host": {"cpu": {"model": "AMD EPYC 7302", "governor": null, "cores_logical": 32},
             "nics": [{"name": "eth0", "mtu": 9000}, {"name": "eth1", "mtu": 1500}]},
    "target": {"fs": {"type": "ext4"},
               "devices": [{"name": "sda", "rotational": false, "slaves": ["md0", "sdb"]}],
               "raid": {"members": [], "extra": {}},
               "network": null}})json");
  Flat expected = {
      {"host.cpu.model", "AMD EPYC 7302"},
      {"host.cpu.governor", "unknown"},
      {"host.cpu.cores_logical", "32"},
      {"host.nics[0].name", "eth0"},
      {"host.nics[0].mtu", "9000"},
      {"host.nics[1].name", "eth1"},
      {"host.nics[1].mtu", "1500"},
      {"target.fs.type", "ext4"},
      {"target.devices[0].name", "sda"},
      {"target.devices[0].rotational", "false"},
      {"target.devices[0].slaves", "md0, sdb"},
      {"target.raid.members", "none"},
      {"target.raid.extra", "none"},
      {"target.network", "unknown"},
  };
  EXPECT_EQ(FlattenInventory(inventory), expected);
  EXPECT_TRUE(FlattenInventory(ordered_json()).empty());
  EXPECT_TRUE(FlattenInventory(ordered_json::object()).empty());
}

TEST(Inventory, FlattenOfALiveInventoryHasEveryLeafOnce) {
  testing::TempDir dir;
  Flat flat = FlattenInventory(InventoryToJson(GatherInventory(dir.path())));
  std::map<std::string, std::string> by_key(flat.begin(), flat.end());
  EXPECT_EQ(by_key.size(), flat.size());
  ASSERT_TRUE(by_key.count("host.cpu.model"));
  ASSERT_TRUE(by_key.count("target.fs.type"));
  ASSERT_TRUE(by_key.count("target.fs.free_bytes"));
  EXPECT_NE(by_key["target.fs.type"], "unknown");
  for (const auto& [key, value] : flat) EXPECT_EQ(key.find(".."), std::string::npos) << key;
}

TEST(Inventory, TextNamesTheFileSystemAndCpuModel) {
  testing::TempDir dir;
  ordered_json inventory = InventoryToJson(GatherInventory(dir.path()));
  std::string text = InventoryText(inventory);
  EXPECT_NE(text.find(inventory["host"]["cpu"]["model"].get<std::string>()), std::string::npos) << text;
  EXPECT_NE(text.find(inventory["target"]["fs"]["type"].get<std::string>()), std::string::npos) << text;
  EXPECT_NE(text.find(dir.path()), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(Inventory, TextOfAFixtureShowsDevicesRaidAndUnknowns) {
  ordered_json inventory = ordered_json::parse(R"json({
    "host": {"hostname": "bench", "cpu": {"model": "Intel Atom D525", "cores_logical": 4, "cores_physical": 2,
             "governor": null, "mhz_max": 1800},
             "memory": {"total_bytes": 1073741824, "page_cache_bytes": null, "available_bytes": 536870912},
             "os": {"pretty_name": "Debian GNU/Linux 12 (bookworm)", "kernel": "6.1.0", "arch": "x86_64"},
             "nics": [{"name": "eth0", "driver": "e1000e", "speed_mbps": 1000, "mtu": 9000, "duplex": "full",
                       "operstate": "up"}]},
    "target": {"path": "/srv/pool", "kind": "directory",
               "fs": {"type": "btrfs", "mount_point": "/srv/pool", "mount_options": "rw,relatime", "source": "/dev/sda",
                      "free_bytes": 2147483648, "total_bytes": 4294967296},
               "devices": [{"name": "sda", "kind": "disk", "model": "WDC WD40EFRX", "size_bytes": 4000787030016,
                            "rotational": true, "scheduler": "mq-deadline", "logical_block_bytes": 512,
                            "physical_block_bytes": 4096, "backing_file": null, "slaves": []}],
               "raid": {"kind": "btrfs", "level": "raid1", "metadata_level": "raid1", "members": ["sda", "sdb"],
                        "degraded_devices": 0, "chunk_bytes": null},
               "network": null}})json");
  std::string text = InventoryText(inventory);
  for (const char* part :
       {"Intel Atom D525", "4 logical / 2 physical", "governor unknown", "1800 MHz", "1.0 GiB total",
        "unknown in page cache", "e1000e", "1000 Mb/s", "MTU 9000", "btrfs on /dev/sda", "2.0 GiB free of 4.0 GiB",
        "WDC WD40EFRX", "3.6 TiB", "rotational", "4096", "btrfs raid1 (metadata raid1), members sda, sdb"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << "\n" << text;
  }
  EXPECT_EQ(text.find("Network"), std::string::npos);
  EXPECT_EQ(InventoryText(ordered_json::object()), "");
}

}  // namespace
}  // namespace nasperf
