// The inventory stored with each run and shown by `nasperf info`: the machine and the target facts that can change a
// result.
#pragma once

#include <string>

#include "sysinfo/inventory_facts.h"

namespace nasperf {

// Everything about the machine and the target that can change a result (base/inventory.h);
// unknown values are nullopt, never guessed. Its JSON document (stored in the results DB,
// compared between runs) is model/inventory_json.h's InventoryToJson.
// target: a path (directory, file, block device), a URL (smb://host/share: only the network
// part), or "null:" (no target, only host facts). A missing path gives a target whose kind
// and facts are unknown. Needs no privileges; reads /proc, /sys, /etc and the target's
// metadata (never its data). Thread-safe; takes tens of milliseconds.
Inventory GatherInventory(const std::string& target);

// Its text for readers (InventoryText, FlattenInventory) is in report/inventory_text.h.

}  // namespace nasperf
