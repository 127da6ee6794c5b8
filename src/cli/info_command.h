// `nasperf info [TARGET]`: prints the inventory of this machine and of TARGET.
#pragma once

#include <string>

namespace nasperf {

// Prints InventoryText(GatherInventory(target)) on stdout, or with `json` the document
// {"nasperf": {"version": NASPERF_VERSION}, "inventory": {...}}. An empty target means ".".
// Returns the exit status: 0, or 2 with one line on stderr when the target path does not
// exist ("nasperf: TARGET: /x: No such file or directory"). URLs and "null:" are not stat()ed.
int InfoCommand(const std::string& target, bool json);

}  // namespace nasperf
