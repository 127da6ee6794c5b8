// The CPU of the sampler's own cgroup (v1 cpu + cpuacct, or v2): its quota, its use and how
// often it was throttled — the NAS's CPU when its services run in a container, where
// /proc/stat is the whole machine's.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace nasperf::sysinfo::telemetry {

// The cgroup paths /proc/self/cgroup names ("hierarchy:controllers:path" lines): the v1
// hierarchy holding the "cpu" controller, the one holding "cpuacct" (often the same
// "cpu,cpuacct"), and v2's "0::" line. Absent when the file has no such line.
struct ProcSelfCgroup {
  std::optional<std::string> v1_cpu, v1_cpuacct;
  std::optional<std::string> v2;
};
ProcSelfCgroup ParseProcSelfCgroup(std::string_view text);

// v2's cpu.max ("200000 100000" -> 2.0 CPUs); nullopt for "max ..." (unlimited) or not a quota.
std::optional<double> ParseCpuMax(std::string_view text);
// A flat keyed file ("nr_periods 996\nnr_throttled 787\n", cpu.stat in v1 and v2); lines
// that are not "key number" are skipped.
std::map<std::string, uint64_t> ParseFlatKeyed(std::string_view text);

// Where the cgroup's CPU files are. v1 (when a v1 hierarchy has the cpu controller): cpu.*
// under <sys_root>/fs/cgroup/cpu (or cpu,cpuacct) + path, cpuacct.usage under
// <sys_root>/fs/cgroup/cpuacct (or cpu,cpuacct) + path. v2 (only when no v1 hierarchy has
// it): cpu.max and cpu.stat under <sys_root>/fs/cgroup + path.
struct CgroupCpuFiles {
  std::string path;  // "/nasperf-lab", as /proc/self/cgroup names it
  bool v2 = false;
  std::string cpu_dir;      // v1: cpu.cfs_quota_us, cpu.cfs_period_us, cpu.stat; v2: cpu.max, cpu.stat
  std::string cpuacct_dir;  // v1: cpuacct.usage; empty for v2
};
// From <proc_root>/self/cgroup; nullopt when it is unreadable or names no CPU controller
// whose directory exists.
std::optional<CgroupCpuFiles> FindCgroupCpu(const std::string& proc_root, const std::string& sys_root);

// One reading of the cgroup's files; a file not read leaves its field nullopt.
struct CgroupCpuReading {
  std::optional<double> quota_cpus;                  // quota / period; nullopt when unlimited (-1, "max")
  std::optional<uint64_t> usage_ns;                  // v1 cpuacct.usage; v2 cpu.stat usage_usec x 1000
  std::optional<uint64_t> nr_periods, nr_throttled;  // cpu.stat
};
CgroupCpuReading ReadCgroupCpu(const CgroupCpuFiles& files);

// A sample's "cgroup" value over `interval_s` between two readings:
//   {"path": "/nasperf-lab", "quota_cpus": 0.02 | null (unlimited), "usage_cpus": x | null,
//    "throttled_pct": x | null, "periods": n | null, "throttled_periods": n | null}
// usage_cpus is CPU-seconds used per second; throttled_pct the share of the enforcement
// periods in the interval that were throttled (0 when none elapsed). Null (no object) when
// the cgroup is the root ("/") with no quota: /proc/stat already tells that.
nlohmann::ordered_json CgroupCpuJson(const CgroupCpuFiles& files, const CgroupCpuReading& before,
                                     const CgroupCpuReading& after, double interval_s);

}  // namespace nasperf::sysinfo::telemetry
