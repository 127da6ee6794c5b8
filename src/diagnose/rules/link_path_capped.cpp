// link-path-capped: the network well under its line rate while neither CPU is busy and
// retransmits are low — the NIC, its bus or the path caps it (the PCI-NIC case).
#include <fmt/format.h>

#include <algorithm>

#include "diagnose/link_math.h"
#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

std::string CpuLine(const char* end, const HostEvidence& h) {
  std::string line = fmt::format("{} CPU: all {} busy", end, Pct(h.cpu_all->busy_pct));
  if (h.cpu_top) line += fmt::format(", busiest core (CPU {}) {} busy", h.cpu_top->cpu, Pct(h.cpu_top->busy_pct));
  return line;
}

}  // namespace

std::optional<Cause> LinkPathCapped(const Evidence& e, const Waterfall& w) {
  if (!e.net.measured || !w.line_rate_mb_per_s) return std::nullopt;
  std::optional<double> net = w.read.network;
  if (w.write.network && (!net || *w.write.network > *net)) net = w.write.network;
  if (!net) return std::nullopt;
  const double pct = *net / *w.line_rate_mb_per_s * 100.0;
  if (pct >= kLinkPathCappedPct) return std::nullopt;
  // Neither CPU busy, both measured: otherwise the CPU, not the path, may be the cap.
  if (CpuBusy(e.client) != false || CpuBusy(e.nas) != false) return std::nullopt;
  const bool low_retransmits =
      e.net.retransmit_pct ? *e.net.retransmit_pct < kLowRetransmitPct : e.net.retransmits && *e.net.retransmits == 0;
  if (!low_retransmits) return std::nullopt;

  Cause c;
  c.rule = "link-path-capped";
  c.layer = kLayerNetwork;
  const std::string link = w.LineLabel();
  c.summary = fmt::format("the link path caps at {}, {} of {}", Mb(*net), Pct(pct), link);
  std::optional<double> disks = w.read.volume ? w.read.volume : w.read.disks;
  if (disks && *disks > *net)
    c.summary += fmt::format("; not the disks (they read {}): disks and protocol could do more", Mb(*disks));
  c.evidence.push_back(fmt::format("network: best {} ({} of the {} line rate, {:.0f} MB/s)", Mb(*net), Pct(pct), link,
                                   *w.line_rate_mb_per_s));
  if (w.payload_max_mb_per_s)
    c.evidence.push_back(fmt::format("TCP payload maximum for MTU {}: {}", *w.path_mtu, Mb(*w.payload_max_mb_per_s)));
  c.evidence.push_back(CpuLine("client", e.client));
  c.evidence.push_back(CpuLine("NAS", e.nas));
  if (e.net.retransmit_pct)
    c.evidence.push_back(fmt::format("TCP retransmits: {:.2f} % of segments", *e.net.retransmit_pct));
  else
    c.evidence.push_back("TCP retransmits: none");
  if (disks) c.evidence.push_back(fmt::format("NAS volume: {} read", Mb(*disks)));
  for (const HostEvidence* h : {&e.client, &e.nas}) {
    if (h->nic && h->nic_bus)
      c.evidence.push_back(fmt::format("{} NIC {} on {} (driver {})", EndName(e, *h), h->nic->name.value_or("?"),
                                       *h->nic_bus, h->nic->driver.value_or("unknown")));
  }
  return c;
}

}  // namespace nasperf::diagnose
