// GatherInventory: the inventory of the machine and the target.
#include "sysinfo/inventory.h"

#include "sysinfo/host_info.h"
#include "sysinfo/storage_info.h"

namespace nasperf {

Inventory GatherInventory(const std::string& target) {
  Inventory inventory;
  inventory.host = sysinfo::GatherHost();
  if (target != "null:") inventory.target = sysinfo::GatherTarget(target);
  return inventory;
}

}  // namespace nasperf
