// The inventory (base/inventory.h, and its stored document) as readers see it: aligned lines
// for `nasperf info` and `results show`, and flat facts for `results compare`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf {

// Human-readable multi-line text for `nasperf info` and `nasperf results show`; every line
// ends in '\n'. Unknown facts print as "unknown"; sections that are absent are left out.
std::string InventoryText(const Inventory& inventory);
// The text of a stored document: InventoryFromJson (model/inventory_json.h) first, which
// tolerates missing keys, nulls and wrong types (older or imported inventories).
std::string InventoryText(const nlohmann::ordered_json& inventory);

// Flattened dotted keys -> printable values, in document order, of the JSON itself (not the
// struct), so that compare lists every key a document holds, even one this version does not know ("host.cpu.model" -> "AMD EPYC",
// "target.fs.type" -> "ext4", "target.devices[0].rotational" -> "false"), for `results compare`
// to list differences like "MTU 1500 vs 9000". null prints as "unknown"; an array of plain
// values is one entry joined by ", " ("loop0, loop1"); an empty array or object is "none".
std::vector<std::pair<std::string, std::string>> FlattenInventory(const nlohmann::ordered_json& inventory);

}  // namespace nasperf
