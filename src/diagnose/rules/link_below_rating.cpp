// link-below-rating: a NIC negotiated below the speed it is rated for, or half duplex.
#include <fmt/format.h>

#include "diagnose/link_math.h"
#include "diagnose/rules/rules.h"

namespace nasperf::diagnose {

std::optional<Cause> LinkBelowRating(const Evidence& e, const Waterfall& w) {
  Cause c;
  c.rule = "link-below-rating";
  c.layer = kLayerNetwork;
  for (const HostEvidence* h : {&e.client, &e.nas}) {
    if (!h->nic) continue;
    const std::string name = h->nic->name.value_or("?");
    const char* end = EndName(e, *h);
    if (h->nic->speed_mbps && h->nic_rated_mbps && *h->nic->speed_mbps > 0 &&
        *h->nic->speed_mbps < *h->nic_rated_mbps) {
      c.evidence.push_back(fmt::format("{} {}: negotiated {} Mbit/s, rated {} Mbit/s", end, name, *h->nic->speed_mbps,
                                       *h->nic_rated_mbps));
      if (c.summary.empty())
        c.summary = fmt::format("the {}'s link negotiated {} on a {} NIC: check the cable and the switch port", end,
                                LinkLabel(*h->nic->speed_mbps), LinkLabel(*h->nic_rated_mbps));
    }
    if (h->nic->duplex == "half") {
      c.evidence.push_back(fmt::format("{} {}: half duplex", end, name));
      if (c.summary.empty())
        c.summary = fmt::format("the {}'s link runs half duplex: send and receive share the wire", end);
    }
  }
  if (c.evidence.empty()) return std::nullopt;
  return c;
}

}  // namespace nasperf::diagnose
