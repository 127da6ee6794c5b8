// CPU and interrupt evidence from 1 Hz telemetry (sysinfo/telemetry/telemetry.h's document):
// how each CPU was used at the busiest second of the steps, and where each NIC and disk
// interrupt line landed. Pure: the orchestrator passes the documents the steps recorded.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/diagnosis.h"

namespace nasperf {

// From the telemetry documents of every step ({"interval_s": 1, "samples": [{"cpus": [...],
// "interrupts": [...]}, ...]}, as stored in RunResult::telemetry), sets host->cpu_all (all
// CPUs together: the mean of the CPUs' figures), host->cpu_top (the busiest CPU) and
// host->cpus (every CPU) at the busiest second — the sample with the highest all-CPU
// busy_pct, ties to the one with the busier single CPU — and host->irqs: per interrupt line
// (by irq and name), its interrupts over every sample (each sample's "per_cpu_per_s" times
// the document's interval_s, 1 s when absent), the CPU that took most and its share. Lines
// are ordered by count, most first. A document, sample or entry of the wrong shape is
// skipped (a figure not read is absent, never guessed); with no usable sample the CPU fields
// are left as they were, and with no interrupt counted irqs is left as it was. A line already
// in host->irqs keeps its smp_affinity.
// The samples' "cgroup" (the sampler's own cgroup, absent or null when it sat in the root
// with no quota) sets host->cgroup_path, cgroup_quota_cpus, cgroup_usage_cpus and
// cgroup_throttled_pct from the cgroup's most throttled sample (ties to the higher
// usage_cpus); with none they are left as they were.
// Pass only the telemetry of the steps whose figures the CPU rules judge (the protocol and
// volume steps, which moved data to or from the NAS): a CPU busy in another step (the
// client's null: ceiling, on a NAS sharing the client's machine) held nothing back.
void AddTelemetryEvidence(const std::vector<nlohmann::ordered_json>& telemetry, HostEvidence* host);

// Sets each line's smp_affinity from /proc/irq/N/smp_affinity as read (irq "24" -> "1").
void SetIrqAffinities(const std::map<std::string, std::string>& affinity_by_irq, HostEvidence* host);

}  // namespace nasperf
