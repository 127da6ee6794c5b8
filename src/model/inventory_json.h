// The inventory's one JSON codec: the document stored with each run, sent by agents and
// printed by `nasperf info --json`, to and from the structs of base/inventory.h.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf {

// The document, every key always written in this order (unknown values null; "target" only
// when there is one, "raid" and "network" null when absent):
//   {"host": {"hostname", "cpu": {"model", "cores_logical", "cores_physical", "governor", "mhz_max"},
//             "memory": {"total_bytes", "page_cache_bytes", "available_bytes"},
//             "os": {"pretty_name", "kernel", "arch"},
//             "nics": [{"name", "driver", "speed_mbps", "mtu", "duplex", "operstate"}]},
//    "target": {"path", "kind", "fs": {"type", "mount_point", "mount_options", "source", "free_bytes", "total_bytes"},
//               "devices": [{"name", "kind", "model", "size_bytes", "rotational", "scheduler",
//                            "logical_block_bytes", "physical_block_bytes", "backing_file", "slaves"}],
//               "raid": {"kind", "level", "metadata_level", "members", "degraded_devices", "chunk_bytes"},
//               "network": null | {"server", "address", "local_address", "nic": null | {...}}}}
// Keys are stable: they are stored in the results DB and compared between runs.
nlohmann::ordered_json InventoryToJson(const Inventory& inventory);
nlohmann::ordered_json InventoryToJson(const HostInventory& host);
nlohmann::ordered_json InventoryToJson(const CpuFacts& cpu);
nlohmann::ordered_json InventoryToJson(const MemoryFacts& memory);
nlohmann::ordered_json InventoryToJson(const NicFacts& nic);
nlohmann::ordered_json InventoryToJson(const std::vector<NicFacts>& nics);
nlohmann::ordered_json InventoryToJson(const TargetInventory& target);
nlohmann::ordered_json InventoryToJson(const BlockDevice& device);
nlohmann::ordered_json InventoryToJson(const std::vector<BlockDevice>& devices);
nlohmann::ordered_json InventoryToJson(const RaidFacts& raid);

// Reads a stored, imported or older document; never fails, because every reader of an
// inventory (`results show`, compare) shows what is there and "unknown" for the rest:
// a missing or null key is unknown (nullopt, an empty list); a "host", "target", "raid",
// "network" or NIC that is not an object is absent; any other section or list element that
// is not an object reads as all unknown; a fact of the wrong type (a string where a number
// belongs, a float, a negative byte count, a list element that is not a string) is unknown
// too. Unknown keys are ignored (FlattenInventory, which lists them, reads the JSON itself).
Inventory InventoryFromJson(const nlohmann::ordered_json& document);

}  // namespace nasperf
