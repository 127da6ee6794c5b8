// mtu-mismatch: the client's and the NAS's MTUs differ (jumbo frames on one side only).
#include <fmt/format.h>

#include "diagnose/rules/rules.h"

namespace nasperf::diagnose {
namespace {

// Above the standard Ethernet payload: jumbo frames.
constexpr int64_t kStandardMtu = 1500;

}  // namespace

std::optional<Cause> MtuMismatch(const Evidence& e, const Waterfall& w) {
  if (!e.client.nic || !e.nas.nic || !e.client.nic->mtu || !e.nas.nic->mtu) return std::nullopt;
  const int64_t client = *e.client.nic->mtu, nas = *e.nas.nic->mtu;
  if (client == nas) return std::nullopt;
  Cause c;
  c.rule = "mtu-mismatch";
  c.layer = kLayerNetwork;
  const bool jumbo_one_side = (client > kStandardMtu) != (nas > kStandardMtu);
  c.summary = fmt::format("the MTU differs: client {}, NAS {}{}; set both ends (and the switch) alike", client, nas,
                          jumbo_one_side ? " (jumbo frames on one side only)" : "");
  c.evidence.push_back(fmt::format("client {}: MTU {}", e.client.nic->name.value_or("?"), client));
  c.evidence.push_back(fmt::format("NAS {}: MTU {}", e.nas.nic->name.value_or("?"), nas));
  return c;
}

}  // namespace nasperf::diagnose
