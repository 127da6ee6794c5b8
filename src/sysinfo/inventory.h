// The inventory stored with each run and shown by `nasperf info`: the machine and the target facts that can change a
// result.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nasperf {

// Everything about the machine and the target that can change a result. Keys are stable
// (stored in the results DB, compared between runs); unknown values are null, never guessed.
//   {"host": {"hostname", "cpu": {"model", "cores_logical", "cores_physical", "governor", "mhz_max"},
//             "memory": {"total_bytes", "page_cache_bytes", "available_bytes"},
//             "os": {"pretty_name", "kernel", "arch"},
//             "nics": [{"name", "driver", "speed_mbps", "mtu", "duplex", "operstate"}]},
//    "target": {"path", "kind", "fs": {"type", "mount_point", "mount_options", "source", "free_bytes", "total_bytes"},
//               "devices": [{"name", "kind", "model", "size_bytes", "rotational", "scheduler",
//                            "logical_block_bytes", "physical_block_bytes", "backing_file", "slaves"}],
//               "raid": {"kind", "level", "metadata_level", "members", "degraded_devices", "chunk_bytes"},
//               "network": null | {"server", "address", "local_address", "nic": {...}}}}
// target: a path (directory, file, block device), a URL (smb://host/share: only the network
// part), or "null:" (no "target" section, only host facts). A missing path gives a target
// section whose kind and facts are null. Needs no privileges; reads /proc, /sys, /etc and
// the target's metadata (never its data). Thread-safe; takes tens of milliseconds.
nlohmann::ordered_json GatherInventory(const std::string& target);

// Its text for readers (InventoryText, FlattenInventory) is in report/inventory_text.h.

}  // namespace nasperf
