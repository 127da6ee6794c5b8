// Test fixture: an inventory document with every key, in the order InventoryToJson writes
// them, and every kind of line the text has (NICs with and without facts, loop/md/disk
// devices, md RAID, a network path). Shared by the codec's and the renderer's tests.
#pragma once

namespace nasperf::testing {

inline constexpr const char* kFullInventoryJson =
    R"json({"host": {"hostname": "bench", "cpu": {"model": "Intel Atom D525", "cores_logical": 4, "cores_physical": 2,
          "governor": null, "mhz_max": 1800},
          "memory": {"total_bytes": 1073741824, "page_cache_bytes": null, "available_bytes": 536870912},
          "os": {"pretty_name": "Debian GNU/Linux 12 (bookworm)", "kernel": "6.1.0", "arch": "x86_64"},
          "nics": [{"name": "eth0", "driver": "e1000e", "speed_mbps": 1000, "mtu": 9000, "duplex": "full",
                    "operstate": "up", "bus": "pci 0000:02:00.0", "rated_mbps": 1000},
                   {"name": "eth1", "driver": null, "speed_mbps": null, "mtu": 1500, "duplex": null,
                    "operstate": null, "bus": null, "rated_mbps": null}]},
 "target": {"path": "/srv/pool", "kind": "directory",
            "fs": {"type": "ext4", "mount_point": "/srv/pool", "mount_options": "rw,relatime", "source": "/dev/md0",
                   "free_bytes": 2147483648, "total_bytes": 4294967296},
            "devices": [{"name": "loop0", "kind": "loop", "model": null, "size_bytes": 268435456,
                         "rotational": false, "scheduler": "none", "logical_block_bytes": 512,
                         "physical_block_bytes": 512, "backing_file": "/srv/a.img", "slaves": ["md0"],
                         "controller_driver": "loop", "link": null},
                        {"name": "md0", "kind": "md", "model": null, "size_bytes": 4000787030016,
                         "rotational": null, "scheduler": null, "logical_block_bytes": null,
                         "physical_block_bytes": null, "backing_file": null, "slaves": ["sda", "sdb"],
                         "controller_driver": null, "link": null},
                        {"name": "sda", "kind": "disk", "model": "WDC WD40EFRX", "size_bytes": 1000,
                         "rotational": true, "scheduler": "mq-deadline", "logical_block_bytes": 512,
                         "physical_block_bytes": 4096, "backing_file": null, "slaves": [],
                         "controller_driver": "ata_piix", "link": "SATA 3.0 Gbit/s"}],
            "raid": {"kind": "md", "level": "raid5", "metadata_level": null, "members": ["sda", "sdb"],
                     "degraded_devices": 1, "chunk_bytes": 524288},
            "network": {"server": "nas.lan", "address": "198.18.0.2", "local_address": "198.18.0.1",
                        "nic": {"name": "veth0", "driver": "veth", "speed_mbps": 10000, "mtu": 1500,
                                "duplex": "full", "operstate": "up", "bus": "virtual", "rated_mbps": null}}}})json";

}  // namespace nasperf::testing
