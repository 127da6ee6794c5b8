// Tests of the inventory's JSON codec: byte-identical round trips, and the tolerant reading of
// older, partial and damaged documents.
#include "model/inventory_json.h"
#include "testing/inventory_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace nasperf {
namespace {

using nlohmann::ordered_json;

// Every key, in the order the writer uses.
const char* const kFull = testing::kFullInventoryJson;

TEST(InventoryJson, FullDocumentRoundTripsByteForByte) {
  ordered_json document = ordered_json::parse(kFull);
  Inventory inventory = InventoryFromJson(document);
  ordered_json again = InventoryToJson(inventory);
  EXPECT_EQ(again.dump(2), document.dump(2));
  EXPECT_EQ(InventoryFromJson(again), inventory);

  ASSERT_TRUE(inventory.host && inventory.target && inventory.target->raid && inventory.target->network);
  EXPECT_EQ(inventory.host->cpu.mhz_max, 1800);
  EXPECT_FALSE(inventory.host->cpu.governor.has_value());
  EXPECT_EQ(inventory.host->nics.size(), 2u);
  EXPECT_EQ(inventory.target->devices[0].backing_file, "/srv/a.img");
  EXPECT_EQ(inventory.target->devices[1].slaves, (std::vector<std::string>{"sda", "sdb"}));
  EXPECT_EQ(inventory.target->devices[0].rotational, false);
  EXPECT_EQ(inventory.target->raid->chunk_bytes, 524288);
  ASSERT_TRUE(inventory.target->network->nic.has_value());
  EXPECT_EQ(inventory.target->network->nic->driver, "veth");
}

// Issue 17's facts (NIC bus and rating, the disk's controller and link) are read, and a
// document stored before them reads with them unknown.
TEST(InventoryJson, DiagnoseFactsReadAndOlderDocumentsLackThem) {
  Inventory full = InventoryFromJson(ordered_json::parse(testing::kFullInventoryJson));
  EXPECT_EQ(full.host->nics[0].bus, "pci 0000:02:00.0");
  EXPECT_EQ(full.host->nics[0].rated_mbps, 1000);
  EXPECT_EQ(full.target->network->nic->bus, "virtual");
  EXPECT_EQ(full.target->devices[2].controller_driver, "ata_piix");
  EXPECT_EQ(full.target->devices[2].link, "SATA 3.0 Gbit/s");

  Inventory old = InventoryFromJson(ordered_json::parse(
      R"({"host": {"nics": [{"name": "eth0", "speed_mbps": 1000}]},
          "target": {"devices": [{"name": "sda", "kind": "disk"}]}})"));
  EXPECT_EQ(old.host->nics[0].speed_mbps, 1000);
  EXPECT_FALSE(old.host->nics[0].bus.has_value());
  EXPECT_FALSE(old.host->nics[0].rated_mbps.has_value());
  EXPECT_FALSE(old.target->devices[0].controller_driver.has_value());
  EXPECT_FALSE(old.target->devices[0].link.has_value());
}

TEST(InventoryJson, StructRoundTripsThroughJson) {
  Inventory inventory;
  inventory.host.emplace();
  inventory.host->hostname = "nas";
  inventory.host->memory.total_bytes = std::numeric_limits<uint64_t>::max();
  inventory.host->nics.push_back(NicFacts{.name = "eth0", .mtu = 9000});
  inventory.target.emplace();
  inventory.target->path = "/srv";
  inventory.target->fs.free_bytes = 0;
  inventory.target->devices.push_back(BlockDevice{.name = "sda", .rotational = true, .slaves = {"x", "y"}});
  inventory.target->raid = RaidFacts{.kind = "md", .members = {"sda"}, .degraded_devices = 0};
  inventory.target->network = NetworkPath{.server = "nas"};

  ordered_json json = InventoryToJson(inventory);
  EXPECT_EQ(InventoryFromJson(json), inventory);
  EXPECT_EQ(InventoryToJson(InventoryFromJson(json)).dump(), json.dump());
  EXPECT_EQ(json["host"]["memory"]["total_bytes"], std::numeric_limits<uint64_t>::max());
  EXPECT_TRUE(json["target"]["network"]["nic"].is_null());
  EXPECT_TRUE(json["target"]["devices"][0]["model"].is_null());
}

TEST(InventoryJson, WriterKeepsTheKeyOrderAndWritesEveryKey) {
  Inventory inventory;
  inventory.host.emplace();
  inventory.target.emplace();
  EXPECT_EQ(InventoryToJson(inventory).dump(),
            R"({"host":{"hostname":null,"cpu":{"model":null,"cores_logical":null,"cores_physical":null,)"
            R"("governor":null,"mhz_max":null},"memory":{"total_bytes":null,"page_cache_bytes":null,)"
            R"("available_bytes":null},"os":{"pretty_name":null,"kernel":null,"arch":null},"nics":[]},)"
            R"("target":{"path":null,"kind":null,"fs":{"type":null,"mount_point":null,"mount_options":null,)"
            R"("source":null,"free_bytes":null,"total_bytes":null},"devices":[],"raid":null,"network":null}})");
  EXPECT_EQ(InventoryToJson(RaidFacts{}).dump(),
            R"({"kind":null,"level":null,"metadata_level":null,"members":[],"degraded_devices":null,)"
            R"("chunk_bytes":null})");
  EXPECT_EQ(InventoryToJson(Inventory{}).dump(), "{}");  // no host, no target: an empty object
}

TEST(InventoryJson, MissingKeysAndNullsAreUnknown) {
  Inventory inventory = InventoryFromJson(ordered_json::parse(
      R"({"host": {"hostname": null, "cpu": {"model": "ARM"}, "os": null},
          "target": {"path": "/x", "devices": [{"name": "sdz"}], "raid": null, "network": {"server": "nas"}}})"));
  ASSERT_TRUE(inventory.host.has_value());
  EXPECT_FALSE(inventory.host->hostname.has_value());
  EXPECT_EQ(inventory.host->cpu.model, "ARM");
  EXPECT_EQ(inventory.host->cpu, (CpuFacts{.model = "ARM"}));
  EXPECT_EQ(inventory.host->os, OsFacts{});
  EXPECT_TRUE(inventory.host->nics.empty());
  ASSERT_TRUE(inventory.target.has_value());
  EXPECT_EQ(inventory.target->fs, FsFacts{});
  ASSERT_EQ(inventory.target->devices.size(), 1u);
  EXPECT_EQ(inventory.target->devices[0], BlockDevice{.name = "sdz"});
  EXPECT_FALSE(inventory.target->raid.has_value());
  ASSERT_TRUE(inventory.target->network.has_value());
  EXPECT_FALSE(inventory.target->network->nic.has_value());

  EXPECT_EQ(InventoryFromJson(ordered_json()), Inventory{});
  EXPECT_EQ(InventoryFromJson(ordered_json::object()), Inventory{});
  Inventory host_only = InventoryFromJson(ordered_json::parse(R"({"host": {}, "target_note": "moved"})"));
  EXPECT_TRUE(host_only.host.has_value());
  EXPECT_FALSE(host_only.target.has_value());
}

TEST(InventoryJson, WrongTypesAreUnknownNotFailures) {
  Inventory inventory = InventoryFromJson(ordered_json::parse(
      R"({"host": {"hostname": 7, "cpu": {"cores_logical": "4", "mhz_max": 1.5}, "memory": {"total_bytes": -1},
                   "nics": [5, {"name": "eth0", "mtu": "1500"}]},
          "target": {"path": ["x"], "fs": 3, "devices": {"name": "sda"},
                     "raid": {"kind": "md", "members": ["sda", 1, null], "chunk_bytes": "64k"},
                     "network": {"server": "nas", "nic": "eth0"}}})"));
  ASSERT_TRUE(inventory.host.has_value());
  EXPECT_FALSE(inventory.host->hostname.has_value());
  EXPECT_EQ(inventory.host->cpu, CpuFacts{});
  EXPECT_FALSE(inventory.host->memory.total_bytes.has_value());
  ASSERT_EQ(inventory.host->nics.size(), 2u);
  EXPECT_EQ(inventory.host->nics[0], NicFacts{});
  EXPECT_EQ(inventory.host->nics[1], NicFacts{.name = "eth0"});
  ASSERT_TRUE(inventory.target.has_value());
  EXPECT_FALSE(inventory.target->path.has_value());
  EXPECT_EQ(inventory.target->fs, FsFacts{});
  EXPECT_TRUE(inventory.target->devices.empty());
  ASSERT_TRUE(inventory.target->raid.has_value());
  EXPECT_EQ(inventory.target->raid->members, std::vector<std::string>{"sda"});
  EXPECT_FALSE(inventory.target->raid->chunk_bytes.has_value());
  EXPECT_FALSE(inventory.target->network->nic.has_value());

  // Sections of the wrong type are absent.
  Inventory odd = InventoryFromJson(ordered_json::parse(R"({"host": 1, "target": "x"})"));
  EXPECT_EQ(odd, Inventory{});
  // Integers that do not fit the fact are unknown rather than wrapped.
  Inventory big = InventoryFromJson(ordered_json::parse(
      R"({"target": {"devices": [{"size_bytes": 18446744073709551615, "logical_block_bytes": 512}]}})"));
  EXPECT_FALSE(big.target->devices[0].size_bytes.has_value());
  EXPECT_EQ(big.target->devices[0].logical_block_bytes, 512);
}

}  // namespace
}  // namespace nasperf
