// nas-cpu-saturated: the NAS's CPU held the data-moving steps back — every core busy, or the
// services' cgroup throttled at its quota — while the protocol fell short of the layers
// beneath it.
#include <fmt/format.h>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

std::string Cpus(double cpus) { return fmt::format("{:.2f} CPUs", cpus); }

}  // namespace

NasCpuSaturation NasCpuSaturationOf(const HostEvidence& nas) {
  if (!nas.measured) return NasCpuSaturation::kNo;
  if (nas.cgroup_quota_cpus && nas.cgroup_usage_cpus && nas.cgroup_throttled_pct && *nas.cgroup_quota_cpus > 0 &&
      *nas.cgroup_throttled_pct >= kCgroupThrottledPct &&
      *nas.cgroup_usage_cpus >= kCgroupQuotaUsedRatio * *nas.cgroup_quota_cpus)
    return NasCpuSaturation::kCgroupQuota;
  if (nas.cpu_all && nas.cpu_all->busy_pct >= kCpuSaturatedPct) return NasCpuSaturation::kAllCores;
  return NasCpuSaturation::kNo;
}

std::optional<Cause> NasCpuSaturated(const Evidence& e, const Waterfall& w) {
  const HostEvidence& nas = e.nas;
  const NasCpuSaturation how = NasCpuSaturationOf(nas);
  if (how == NasCpuSaturation::kNo) return std::nullopt;
  // A protocol near what the network and the disks carry was not held back, whatever the
  // CPU figure says (a NAS sharing a busy machine shows the machine's CPU). A throttled
  // quota holds back the NAS's network test as well, so it is measured against the link's
  // payload maximum; busy cores are not, since a link path capped below the line (a PCI
  // NIC) on a machine that is busy for other reasons would read as the CPU.
  const bool against_link = how == NasCpuSaturation::kCgroupQuota;
  const std::optional<Shortfall> short_of = ShortOfBeneath(w, kCpuShortRatio, against_link);
  if (!short_of) return std::nullopt;
  Cause c;
  c.rule = "nas-cpu-saturated";
  c.layer = kLayerNasCpu;
  const std::string moved =
      fmt::format(" while the protocol moved {} {}, {} of the {} beneath it", Mb(short_of->protocol_mb_per_s),
                  short_of->is_read ? "read" : "write", Pct(short_of->pct()), Mb(short_of->beneath_mb_per_s));
  if (how == NasCpuSaturation::kCgroupQuota) {
    const std::string path = nas.cgroup_path.value_or("(unnamed)");
    c.summary = fmt::format(
                    "the NAS's CPU quota is saturated: its cgroup {} may use {} and was throttled in {} of "
                    "periods",
                    path, Cpus(*nas.cgroup_quota_cpus), Pct(*nas.cgroup_throttled_pct)) +
                moved;
    c.evidence.push_back(fmt::format(
        "NAS cgroup {}: quota {}, used {:.3f} CPUs ({} of the quota), throttled in {} of periods, at its most "
        "throttled second",
        path, Cpus(*nas.cgroup_quota_cpus), *nas.cgroup_usage_cpus,
        Pct(*nas.cgroup_usage_cpus / *nas.cgroup_quota_cpus * 100), Pct(*nas.cgroup_throttled_pct)));
    if (nas.cpu_all)
      c.evidence.push_back(
          fmt::format("NAS CPU: all {} busy at the busiest second (the machine's, which the cgroup "
                      "shares)",
                      Pct(nas.cpu_all->busy_pct)));
  } else {
    const std::string cores = nas.cores_logical ? fmt::format("{} ", *nas.cores_logical) : "";
    c.summary =
        fmt::format("the NAS's CPU is saturated: all {}cores {} busy", cores, Pct(nas.cpu_all->busy_pct)) + moved;
    c.evidence.push_back(fmt::format("NAS CPU: all {} busy at the busiest second (softirq {}, irq {})",
                                     Pct(nas.cpu_all->busy_pct), Pct(nas.cpu_all->softirq_pct),
                                     Pct(nas.cpu_all->irq_pct)));
    for (const CpuPeak& cpu : nas.cpus)
      c.evidence.push_back(fmt::format("NAS CPU {}: {} busy", cpu.cpu, Pct(cpu.busy_pct)));
  }
  c.evidence.push_back(short_of->EvidenceLine());
  return c;
}

}  // namespace nasperf::diagnose
