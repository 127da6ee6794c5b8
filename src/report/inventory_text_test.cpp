// Tests of InventoryText's exact lines: a full inventory, and older or partial ones (keys
// missing, nulls, sections of the wrong type) that stored and imported documents may hold.
#include "report/inventory_text.h"
#include "testing/inventory_fixture.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using nlohmann::ordered_json;

// Every kind of line: NICs with and without facts, loop/md/disk devices, md RAID, network.
const char* const kFull = testing::kFullInventoryJson;

// Keys missing, nulls and empty lists, as an older or imported inventory may have them.
const char* const kPartial = R"json({"host": {"hostname": null, "cpu": {"model": "ARM Cortex-A53"}, "os": null, "nics": []},
 "target": {"path": "smb://u:***@nas/share", "kind": "url",
            "devices": [{"name": "sdz"}, {}],
            "raid": {"kind": "btrfs", "level": "raid1", "metadata_level": "raid1c3", "members": []},
            "network": {"server": "nas", "address": null, "nic": null}}})json";

// Sections that are null or of the wrong type are left out, as if missing.
const char* const kOdd = R"json({"host": {"cpu": null, "memory": {"total_bytes": 512}, "nics": null},
 "target": {"path": "/dev/loop3", "kind": "block_device", "fs": {"type": null, "free_bytes": 4096},
            "devices": null, "raid": null, "network": null}})json";

TEST(InventoryText, FullInventoryExactly) {
  EXPECT_EQ(InventoryText(ordered_json::parse(kFull)),
      "Host        bench\n"
      "CPU         Intel Atom D525, 4 logical / 2 physical cores, governor unknown, max clock 1800 MHz\n"
      "Memory      1.0 GiB total, unknown in page cache, 512.0 MiB available\n"
      "OS          Debian GNU/Linux 12 (bookworm), kernel 6.1.0 (x86_64)\n"
      "NIC         eth0: driver e1000e, speed 1000 Mb/s, MTU 9000, duplex full, state up, bus pci 0000:02:00.0, rated 1000 Mb/s\n"
      "NIC         eth1: driver unknown, speed unknown, MTU 1500, duplex unknown, state unknown\n"
      "Target      /srv/pool (directory)\n"
      "File system ext4 on /dev/md0 at /srv/pool, options rw,relatime\n"
      "Space       2.0 GiB free of 4.0 GiB\n"
      "Device      loop0 (loop of /srv/a.img): model unknown, 256.0 MiB, non-rotational, scheduler none, block 512/512 B logical/physical, on md0, controller loop\n"
      "Device      md0 (md): model unknown, 3.6 TiB, rotational unknown, scheduler unknown, block unknown/unknown B logical/physical, on sda, sdb\n"
      "Device      sda (disk): model WDC WD40EFRX, 1000 B, rotational, scheduler mq-deadline, block 512/4096 B logical/physical, controller ata_piix, link SATA 3.0 Gbit/s\n"
      "RAID        md raid5, members sda, sdb, chunk 512.0 KiB, degraded devices 1\n"
      "Network     server nas.lan (198.18.0.2) from 198.18.0.1 via veth0: driver veth, speed 10000 Mb/s, MTU 1500, duplex full, state up, bus virtual\n");
}

TEST(InventoryText, PartialInventoryRendersWhatItHas) {
  EXPECT_EQ(InventoryText(ordered_json::parse(kPartial)),
      "Host        unknown\n"
      "CPU         ARM Cortex-A53, unknown logical / unknown physical cores, governor unknown, max clock unknown\n"
      "Memory      unknown total, unknown in page cache, unknown available\n"
      "OS          unknown, kernel unknown (unknown)\n"
      "NIC         none found\n"
      "Target      smb://u:***@nas/share (url)\n"
      "Device      sdz (unknown): model unknown, unknown, rotational unknown, scheduler unknown, block unknown/unknown B logical/physical\n"
      "Device      unknown (unknown): model unknown, unknown, rotational unknown, scheduler unknown, block unknown/unknown B logical/physical\n"
      "RAID        btrfs raid1 (metadata raid1c3), members none, degraded devices unknown\n"
      "Network     server nas (unknown) from unknown via an unknown NIC\n");
}

TEST(InventoryText, NullAndWrongTypedSectionsAreLeftOut) {
  EXPECT_EQ(InventoryText(ordered_json::parse(kOdd)),
      "Host        unknown\n"
      "CPU         unknown, unknown logical / unknown physical cores, governor unknown, max clock unknown\n"
      "Memory      512 B total, unknown in page cache, unknown available\n"
      "OS          unknown, kernel unknown (unknown)\n"
      "NIC         none found\n"
      "Target      /dev/loop3 (block_device)\n"
      "Space       4.0 KiB free of unknown\n");
  EXPECT_EQ(InventoryText(ordered_json()), "");
  EXPECT_EQ(InventoryText(ordered_json::array({1, 2})), "");
  EXPECT_EQ(InventoryText(ordered_json::parse(R"({"host": 3, "target": "x"})")), "");
}

}  // namespace
}  // namespace nasperf
