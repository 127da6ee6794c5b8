// RankNicOf / RankNicTowards.
#include "cluster/rank_nic.h"

#include "sysinfo/storage_info.h"

namespace nasperf {

std::optional<RankNic> RankNicOf(const TargetInventory& target) {
  if (!target.network || !target.network->nic || !target.network->nic->name) return std::nullopt;
  const NicFacts& nic = *target.network->nic;
  return RankNic{*nic.name, nic.speed_mbps, nic.mtu};
}

std::optional<RankNic> RankNicTowards(const std::string& target) { return RankNicOf(sysinfo::GatherTarget(target)); }

}  // namespace nasperf
