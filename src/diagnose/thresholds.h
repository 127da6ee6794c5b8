// The thresholds of diagnose's rules, named once: the rules read them, the tests and
// docs/diagnose.md cite them by name. Percentages are 0..100, ratios 0..1.
#pragma once

namespace nasperf::diagnose {

// A CPU is busy (neither end may be for link-path-capped) when all CPUs together are at
// least this busy, or any one core is at least kCoreBusyPct busy.
inline constexpr double kCpuBusyAllPct = 70;
inline constexpr double kCoreBusyPct = 90;
// nas-cpu-saturated: all CPUs together at least this busy at the busiest second...
inline constexpr double kCpuSaturatedPct = 90;
// ...or the NAS's cgroup throttled in at least this % of its periods while using at least
// kCgroupQuotaUsedRatio of its quota, at its most throttled second.
inline constexpr double kCgroupThrottledPct = 50;
inline constexpr double kCgroupQuotaUsedRatio = 0.90;
// nas-cpu-saturated and irq-imbalance: only when the end-to-end figure is below this ratio
// of the lower of the network's and the NAS storage's ceilings (a protocol near the line
// rate was not held back by a CPU, whatever its figure says).
inline constexpr double kCpuShortRatio = 0.85;
// irq-imbalance: one core at least kCoreBusyPct busy, at least this share of it irq +
// softirq, while the other cores average at most kOthersIdlePct busy.
inline constexpr double kIrqShareOfBusy = 0.5;
inline constexpr double kOthersIdlePct = 30;
// link-path-capped: the best network figure below this share of the line rate.
inline constexpr double kLinkPathCappedPct = 80;
// Retransmits are low below this share of segments sent (or when none were counted).
inline constexpr double kLowRetransmitPct = 1.0;
// healthy: the network cap at or above this share of the line rate is the link at work.
inline constexpr double kLinkHealthyPct = 90;
// The link is named the cap only when the protocol reached at least this ratio of it;
// below it (and above kProtocolShortRatio, where protocol-limited speaks) the summary is an
// unexplained shortfall, with what was and was not measured that could explain it.
inline constexpr double kLinkCapProtocolRatio = 0.90;
// disk-limited: the protocol within this fraction of the volume's own figure...
inline constexpr double kDiskMatchFraction = 0.15;
// ...and the volume's figure below this share of the network's.
inline constexpr double kDiskBelowNetRatio = 0.95;
// raid-not-scaling: the volume's read below this ratio of the read expected from members.
inline constexpr double kRaidScalingMinRatio = 0.80;
// A member is slower than the rest when it reads this fraction below the members' median.
inline constexpr double kSlowMemberFraction = 0.20;
// protocol-limited: the protocol below this ratio of the lower of disks and network.
inline constexpr double kProtocolShortRatio = 0.70;
// protocol-limited names rsize/wsize below this many bytes as costly.
inline constexpr double kSmallIoBytes = 64 * 1024;
// protocol-limited names an iSCSI read below this ratio of its write.
inline constexpr double kIscsiReadBelowWriteRatio = 0.70;
// client-limited: the client's CPU at least kCpuSaturatedPct busy and the protocol below
// this ratio of the lowest ceiling of the layers beneath it.
inline constexpr double kClientShortRatio = 0.90;
// cached: a volume or protocol read above the disks' ceiling by more than this factor.
inline constexpr double kAboveDisksFactor = 1.15;

}  // namespace nasperf::diagnose
