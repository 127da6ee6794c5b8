// raid-not-scaling: the volume reads well below what its members together should give,
// with the likeliest cause the evidence shows (a busy CPU or IRQ core, a slow member, a
// SATA controller in IDE/legacy mode).
#include <fmt/format.h>

#include "diagnose/raid_expectation.h"
#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

// The legacy (IDE-mode) SATA drivers: no NCQ, often one channel at a time.
bool IdeModeDriver(const std::string& driver) { return driver == "ata_piix" || driver == "pata_legacy"; }

// The likeliest causes from the evidence, likeliest first.
std::vector<std::string> Likeliest(const Evidence& e, const RaidExpectation& x) {
  std::vector<std::string> out;
  const HostEvidence& nas = e.nas;
  const NasCpuSaturation cpu = NasCpuSaturationOf(nas);
  if (cpu == NasCpuSaturation::kCgroupQuota) {
    out.push_back(fmt::format("the NAS's CPU quota: its cgroup {} throttled in {} of periods at {:.2f} CPUs",
                              nas.cgroup_path.value_or("(unnamed)"), Pct(*nas.cgroup_throttled_pct),
                              *nas.cgroup_quota_cpus));
  } else if (cpu == NasCpuSaturation::kAllCores) {
    out.push_back(fmt::format("the NAS's CPU: all cores {} busy", Pct(nas.cpu_all->busy_pct)));
  } else if (nas.measured && nas.cpu_top && nas.cpu_top->busy_pct >= kCoreBusyPct) {
    out.push_back(fmt::format("one NAS core: CPU {} {} busy ({} irq and softirq)", nas.cpu_top->cpu,
                              Pct(nas.cpu_top->busy_pct), Pct(nas.cpu_top->softirq_pct + nas.cpu_top->irq_pct)));
  }
  for (const MemberEvidence& m : e.members) {
    const double r = m.seq.read_mb_per_s.value_or(0);
    if (r < (1 - kSlowMemberFraction) * x.median_member_mb_per_s)
      out.push_back(fmt::format("a slow member: {} reads {}, {:.0f} % below the members' median {}", m.device, Mb(r),
                                (1 - r / x.median_member_mb_per_s) * 100, Mb(x.median_member_mb_per_s)));
  }
  for (const MemberEvidence& m : e.members) {
    if (m.driver && IdeModeDriver(*m.driver)) {
      out.push_back(
          fmt::format("the SATA controller in IDE/legacy mode: {} is on {} (ahci in AHCI mode)", m.device, *m.driver));
      break;
    }
  }
  return out;
}

}  // namespace

std::optional<Cause> RaidNotScaling(const Evidence& e, const Waterfall& w) {
  if (!w.disks || w.disks->members < 2 || !w.read.volume) return std::nullopt;
  const RaidExpectation& x = *w.disks;
  const double expected = x.one_reader_mb_per_s;
  if (expected <= 0) return std::nullopt;
  const double ratio = *w.read.volume / expected;
  if (ratio >= kRaidScalingMinRatio) return std::nullopt;
  Cause c;
  c.rule = "raid-not-scaling";
  c.layer = kLayerVolume;
  const std::vector<std::string> causes = Likeliest(e, x);
  c.summary = fmt::format("the {} volume reads {}, {:.2f} of the {} expected from its {} members ({})", x.level,
                          Mb(*w.read.volume), ratio, Mb(expected), x.members, x.how);
  c.summary += causes.empty() ? "; the evidence shows no cause" : "; likeliest: " + causes.front();
  for (const MemberEvidence& m : e.members)
    c.evidence.push_back(fmt::format("member {}: {} raw {} read{}", m.device, Mb(m.seq.read_mb_per_s.value_or(0)),
                                     kMemberReadLabel,
                                     m.driver ? " (controller " + *m.driver + ")" : ""));
  c.evidence.push_back(fmt::format("expected for {}: {} ({})", x.level, Mb(expected), x.how));
  c.evidence.push_back(
      fmt::format("NAS volume 1M sequential read (run --on): {}, ratio {:.2f}", Mb(*w.read.volume), ratio));
  if (!x.write_note.empty()) c.evidence.push_back(x.write_note);
  for (size_t i = 0; i < causes.size(); ++i) c.evidence.push_back((i == 0 ? "likeliest: " : "also: ") + causes[i]);
  return c;
}

}  // namespace nasperf::diagnose
