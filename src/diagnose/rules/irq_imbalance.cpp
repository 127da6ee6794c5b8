// irq-imbalance: one core saturated, mostly by interrupts and softirq, while the others idle —
// the NIC's or the disks' interrupts all land on it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

std::optional<Cause> OnHost(const Evidence& e, const HostEvidence& h) {
  if (!h.measured || !h.cpu_top || h.cpus.size() < 2) return std::nullopt;
  const CpuPeak& top = *h.cpu_top;
  const double interrupt_pct = top.softirq_pct + top.irq_pct;
  if (top.busy_pct < kCoreBusyPct || interrupt_pct < kIrqShareOfBusy * top.busy_pct) return std::nullopt;
  double others = 0;
  int n = 0;
  for (const CpuPeak& cpu : h.cpus) {
    if (cpu.cpu == top.cpu) continue;
    others += cpu.busy_pct;
    ++n;
  }
  if (n == 0 || others / n > kOthersIdlePct) return std::nullopt;

  const char* end = EndName(e, h);
  Cause c;
  c.rule = "irq-imbalance";
  c.layer = &h == &e.nas ? kLayerNasCpu : kLayerClientCpu;
  std::vector<std::string> lines;
  for (const IrqLanding& irq : h.irqs) {
    if (irq.top_cpu != top.cpu) continue;
    lines.push_back(irq.irq);
    c.evidence.push_back(fmt::format("IRQ {} ({}{}): {:.0f} % of {} interrupts on CPU {}, smp_affinity {}", irq.irq,
                                     irq.name, irq.device ? ", " + *irq.device : "", irq.top_share * 100, irq.count,
                                     top.cpu, irq.smp_affinity ? *irq.smp_affinity : "not read"));
  }
  c.summary = fmt::format(
      "interrupts are not balanced on the {}: CPU {} is {} busy ({} irq and softirq) while the "
      "other {} average {} busy",
      end, top.cpu, Pct(top.busy_pct), Pct(interrupt_pct), n, Pct(others / n));
  if (!lines.empty())
    c.summary += fmt::format("; IRQ {} land there (/proc/irq/N/smp_affinity, irqbalance)", fmt::join(lines, ", "));
  c.evidence.insert(c.evidence.begin(), fmt::format("{} CPU {}: {} busy, softirq {}, irq {}", end, top.cpu,
                                                    Pct(top.busy_pct), Pct(top.softirq_pct), Pct(top.irq_pct)));
  if (lines.empty())
    c.evidence.push_back(fmt::format("no NIC or disk interrupt line counted mostly on CPU {}", top.cpu));
  return c;
}

}  // namespace

std::optional<Cause> IrqImbalance(const Evidence& e, const Waterfall& w) {
  // A core pinned by interrupts matters only when the protocol fell short of what the
  // network and the disks carry.
  const std::optional<Shortfall> short_of = ShortOfBeneath(w, kCpuShortRatio);
  if (!short_of) return std::nullopt;
  std::optional<Cause> c = OnHost(e, e.nas);
  if (!c) c = OnHost(e, e.client);
  if (c) c->evidence.push_back(short_of->EvidenceLine());
  return c;
}

}  // namespace nasperf::diagnose
