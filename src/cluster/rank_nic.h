// The per-rank inventory's NIC: the interface a rank reaches its target through, from
// sysinfo's target section (the route to a URL's host or a network mount's server).
#pragma once

#include <optional>
#include <string>

#include "nasperf/result.h"
#include "sysinfo/inventory_facts.h"

namespace nasperf {

// The NIC of `target`'s network path: name, speed and MTU as DescribeNic read them.
// nullopt when the target has no network path (local) or its interface is not known. Pure.
std::optional<RankNic> RankNicOf(const TargetInventory& target);

// RankNicOf(GatherTarget(target)): reads /proc and /sys and asks the kernel for the route
// (sends nothing); milliseconds, so called before the start barrier, never in the clock.
std::optional<RankNic> RankNicTowards(const std::string& target);

}  // namespace nasperf
