// The rules of diagnose, one per file: each reads the evidence and the waterfall and names a
// cause only from measured evidence (nullopt otherwise). docs/diagnose.md lists them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diagnose/waterfall.h"
#include "model/diagnosis.h"

namespace nasperf::diagnose {

using RuleFn = std::optional<Cause> (*)(const Evidence&, const Waterfall&);

std::optional<Cause> LinkBelowRating(const Evidence& e, const Waterfall& w);  // "link-below-rating"
std::optional<Cause> LinkPathCapped(const Evidence& e, const Waterfall& w);   // "link-path-capped"
std::optional<Cause> MtuMismatch(const Evidence& e, const Waterfall& w);      // "mtu-mismatch"
std::optional<Cause> NasCpuSaturated(const Evidence& e, const Waterfall& w);  // "nas-cpu-saturated"
std::optional<Cause> IrqImbalance(const Evidence& e, const Waterfall& w);     // "irq-imbalance"
std::optional<Cause> DiskLimited(const Evidence& e, const Waterfall& w);      // "disk-limited"
std::optional<Cause> RaidNotScaling(const Evidence& e, const Waterfall& w);   // "raid-not-scaling"
std::optional<Cause> ProtocolLimited(const Evidence& e, const Waterfall& w);  // "protocol-limited"
std::optional<Cause> ClientLimited(const Evidence& e, const Waterfall& w);    // "client-limited"
std::optional<Cause> Cached(const Evidence& e, const Waterfall& w);           // "cached"

// Every rule in the order its cause is listed (the link first, caches last).
const std::vector<RuleFn>& AllRules();

// Shared by the rules: whether a host's CPU was busy (kCpuBusyAllPct all, kCoreBusyPct one
// core) at the busiest second; nullopt when its CPU was not measured.
std::optional<bool> CpuBusy(const HostEvidence& h);
// How the NAS's CPU was saturated (the first half of nas-cpu-saturated, shared with the
// rules that defer to it): its services' cgroup throttled in at least kCgroupThrottledPct of
// its periods while using at least kCgroupQuotaUsedRatio of its quota, or all its cores
// together at least kCpuSaturatedPct busy. kNo also when the NAS was not measured.
enum class NasCpuSaturation { kNo, kCgroupQuota, kAllCores };
NasCpuSaturation NasCpuSaturationOf(const HostEvidence& nas);

// How far a protocol figure (read or write) fell short of the layers beneath it on its path: the lower
// of the network's ceiling and the NAS storage's (the volume's, else the members'
// expectation; the network's alone when neither was measured).
struct Shortfall {
  bool is_read = true;
  double protocol_mb_per_s = 0;  // the protocol's read or write (is_read says which)
  double beneath_mb_per_s = 0;  // the lower of the two
  double network_mb_per_s = 0;
  // The link's TCP payload maximum, used instead of the measured network when higher (a
  // throttled CPU quota holds back the network test too, so the measured figure is no
  // ceiling of the path then). nullopt when not asked for, or the line rate or MTU is not known.
  std::optional<double> link_payload_max_mb_per_s;
  std::optional<double> storage_mb_per_s;
  double pct() const { return protocol_mb_per_s / beneath_mb_per_s * 100; }
  // "protocol 1M sequential read: 37 MB/s, 32 % of the lower of network down (117 MB/s) and
  // NAS storage read (400 MB/s)"
  std::string EvidenceLine() const;
};
// The direction furthest below `ratio` of what is beneath it (the network: its measured
// figure, or with `against_link` the higher of that and the link's payload maximum), read
// and write each on its own path; nullopt when neither is, or when the network on a
// direction's path was not measured (short of what, then, cannot be told).
std::optional<Shortfall> ShortOfBeneath(const Waterfall& w, double ratio, bool against_link = false);

// "client" or "NAS", for sentences.
inline const char* EndName(const Evidence& e, const HostEvidence& h) { return &h == &e.client ? "client" : "NAS"; }

}  // namespace nasperf::diagnose
