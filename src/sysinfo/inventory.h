// The inventory stored with each run and shown by `nasperf info`: the machine and the target facts that can change a
// result.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

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

// Human-readable multi-line text for `nasperf info` and `nasperf results show`; every line
// ends in '\n'. Tolerates missing keys (older or imported inventories).
std::string InventoryText(const nlohmann::ordered_json& inventory);

// Flattened dotted keys -> printable values, in document order ("host.cpu.model" -> "AMD EPYC",
// "target.fs.type" -> "ext4", "target.devices[0].rotational" -> "false"), for `results compare`
// to list differences like "MTU 1500 vs 9000". null prints as "unknown"; an array of plain
// values is one entry joined by ", " ("loop0, loop1"); an empty array or object is "none".
std::vector<std::pair<std::string, std::string>> FlattenInventory(const nlohmann::ordered_json& inventory);

}  // namespace nasperf
