// disk-limited: the protocol delivers about what the volume does inside the NAS, and that is
// below what the network carries — the disks are the cap.
#include <fmt/format.h>

#include <cmath>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {

std::optional<Cause> DiskLimited(const Evidence& e, const Waterfall& w) {
  Cause c;
  c.rule = "disk-limited";
  c.layer = kLayerVolume;
  for (auto [dir, p] : {std::pair{"read", &w.read}, std::pair{"write", &w.write}}) {
    if (!p->volume || !p->protocol || !p->network) continue;
    const double v = *p->volume, proto = *p->protocol, net = *p->network;
    if (std::abs(proto - v) > kDiskMatchFraction * v || v >= kDiskBelowNetRatio * net) continue;
    if (c.summary.empty())
      c.summary = fmt::format(
          "the disks cap it: the protocol's {} {} is within {:.0f} % of the volume's own {}, "
          "below the network's {}",
          Mb(proto), dir, kDiskMatchFraction * 100, Mb(v), Mb(net));
    c.evidence.push_back(fmt::format("protocol 1M sequential {}: {}", dir, Mb(proto)));
    c.evidence.push_back(fmt::format("NAS volume 1M sequential {} (run --on): {}", dir, Mb(v)));
    c.evidence.push_back(fmt::format("network {}: {}", dir == std::string("read") ? "down" : "up", Mb(net)));
  }
  if (c.evidence.empty()) return std::nullopt;
  return c;
}

}  // namespace nasperf::diagnose
