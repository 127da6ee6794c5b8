// GatherInventory: the inventory document of the machine and the target.
#include "sysinfo/inventory.h"

#include "sysinfo/host_info.h"
#include "sysinfo/storage_info.h"

namespace nasperf {

using nlohmann::ordered_json;

nlohmann::ordered_json GatherInventory(const std::string& target) {
  ordered_json inventory;
  inventory["host"] = sysinfo::GatherHost();
  if (target != "null:") inventory["target"] = sysinfo::GatherTarget(target);
  return inventory;
}

}  // namespace nasperf
