// AllRules and CpuBusy: the rule list in its order, and the busy test several rules share.
#include "diagnose/rules/rules.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {

const std::vector<RuleFn>& AllRules() {
  static const std::vector<RuleFn> kRules = {LinkBelowRating, MtuMismatch,    LinkPathCapped, NasCpuSaturated,
                                             IrqImbalance,    RaidNotScaling, DiskLimited,    ProtocolLimited,
                                             ClientLimited,   Cached};
  return kRules;
}

std::optional<bool> CpuBusy(const HostEvidence& h) {
  if (!h.measured || !h.cpu_all) return std::nullopt;
  if (h.cpu_all->busy_pct >= kCpuBusyAllPct) return true;
  if (h.cpu_top && h.cpu_top->busy_pct >= kCoreBusyPct) return true;
  return false;
}

}  // namespace nasperf::diagnose
