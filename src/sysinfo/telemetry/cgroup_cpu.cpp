// The sampler's own cgroup CPU: /proc/self/cgroup, the v1 cpu/cpuacct or v2 files, deltas as JSON.
#include "sysinfo/telemetry/cgroup_cpu.h"

#include <cmath>
#include <sstream>

#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo::telemetry {
namespace {

using Json = nlohmann::ordered_json;


bool HasController(std::string_view list, std::string_view name) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    if (list.substr(start, comma - start) == name) return true;
    start = comma + 1;
  }
  return false;
}

// The directory of `path` in the first of the v1 mounts under <sys_root>/fs/cgroup that exists.
std::optional<std::string> V1Dir(const std::string& sys_root, std::initializer_list<const char*> mounts,
                                 const std::string& path) {
  for (const char* m : mounts) {
    std::string dir = sys_root + "/fs/cgroup/" + m + (path == "/" ? "" : path);
    if (PathExists(dir)) return dir;
  }
  return std::nullopt;
}

std::optional<uint64_t> Delta(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  if (!before || !after || *after < *before) return std::nullopt;  // a counter reset: not a figure
  return *after - *before;
}

}  // namespace

ProcSelfCgroup ParseProcSelfCgroup(std::string_view text) {
  ProcSelfCgroup out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    // "hierarchy-ID:controller-list:cgroup-path"; the path itself may hold ':'.
    size_t a = line.find(':');
    size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string_view controllers = std::string_view(line).substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    if (path.empty() || path[0] != '/') continue;
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      out.v2 = path;
      continue;
    }
    if (!out.v1_cpu && HasController(controllers, "cpu")) out.v1_cpu = path;
    if (!out.v1_cpuacct && HasController(controllers, "cpuacct")) out.v1_cpuacct = path;
  }
  return out;
}

std::optional<double> ParseCpuMax(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string quota, period;
  if (!(in >> quota >> period)) return std::nullopt;
  std::optional<int64_t> q = ParseInt(quota), p = ParseInt(period);
  if (!q || !p || *q <= 0 || *p <= 0) return std::nullopt;  // "max": unlimited
  return static_cast<double>(*q) / static_cast<double>(*p);
}

std::map<std::string, uint64_t> ParseFlatKeyed(std::string_view text) {
  std::map<std::string, uint64_t> out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key, value;
    if (!(words >> key >> value)) continue;
    std::optional<int64_t> n = ParseInt(value);
    if (n && *n >= 0) out[key] = static_cast<uint64_t>(*n);
  }
  return out;
}

std::optional<CgroupCpuFiles> FindCgroupCpu(const std::string& proc_root, const std::string& sys_root) {
  std::optional<std::string> text = ReadFileText(proc_root + "/self/cgroup");
  if (!text) return std::nullopt;
  ProcSelfCgroup p = ParseProcSelfCgroup(*text);
  CgroupCpuFiles f;
  if (p.v1_cpu) {
    std::optional<std::string> cpu = V1Dir(sys_root, {"cpu", "cpu,cpuacct", "cpuacct,cpu"}, *p.v1_cpu);
    if (!cpu) return std::nullopt;
    f.path = *p.v1_cpu;
    f.cpu_dir = *cpu;
    if (p.v1_cpuacct)
      f.cpuacct_dir = V1Dir(sys_root, {"cpuacct", "cpu,cpuacct", "cpuacct,cpu"}, *p.v1_cpuacct).value_or("");
    return f;
  }
  if (!p.v2) return std::nullopt;
  const std::string dir = sys_root + "/fs/cgroup" + (*p.v2 == "/" ? "" : *p.v2);
  // The unified hierarchy is mounted there (v2 alone) only when its root has cgroup.controllers.
  if (!PathExists(sys_root + "/fs/cgroup/cgroup.controllers") || !PathExists(dir)) return std::nullopt;
  f.path = *p.v2;
  f.v2 = true;
  f.cpu_dir = dir;
  return f;
}

CgroupCpuReading ReadCgroupCpu(const CgroupCpuFiles& files) {
  CgroupCpuReading r;
  std::map<std::string, uint64_t> stat = ParseFlatKeyed(ReadFileText(files.cpu_dir + "/cpu.stat").value_or(""));
  auto get = [&](const char* key) -> std::optional<uint64_t> {
    auto it = stat.find(key);
    return it == stat.end() ? std::nullopt : std::optional<uint64_t>(it->second);
  };
  r.nr_periods = get("nr_periods");
  r.nr_throttled = get("nr_throttled");
  if (files.v2) {
    r.quota_cpus = ParseCpuMax(ReadFirstLine(files.cpu_dir + "/cpu.max").value_or(""));
    if (std::optional<uint64_t> us = get("usage_usec")) r.usage_ns = *us * 1000;
  } else {
    std::optional<int64_t> quota = ReadInt(files.cpu_dir + "/cpu.cfs_quota_us");
    std::optional<int64_t> period = ReadInt(files.cpu_dir + "/cpu.cfs_period_us");
    if (quota && period && *quota > 0 && *period > 0)  // -1: unlimited
      r.quota_cpus = static_cast<double>(*quota) / static_cast<double>(*period);
    if (!files.cpuacct_dir.empty())
      if (std::optional<int64_t> ns = ReadInt(files.cpuacct_dir + "/cpuacct.usage"); ns && *ns >= 0)
        r.usage_ns = static_cast<uint64_t>(*ns);
  }
  return r;
}

Json CgroupCpuJson(const CgroupCpuFiles& files, const CgroupCpuReading& before, const CgroupCpuReading& after,
                   double interval_s) {
  if (files.path == "/" && !after.quota_cpus) return Json(nullptr);
  Json j = Json::object();
  j["path"] = files.path;
  j["quota_cpus"] = after.quota_cpus ? Json(RoundTo(*after.quota_cpus, 1e4)) : Json(nullptr);
  std::optional<uint64_t> used_ns = Delta(before.usage_ns, after.usage_ns);
  j["usage_cpus"] =
      used_ns && interval_s > 0 ? Json(RoundTo(static_cast<double>(*used_ns) / 1e9 / interval_s, 1e4)) : Json(nullptr);
  std::optional<uint64_t> periods = Delta(before.nr_periods, after.nr_periods);
  std::optional<uint64_t> throttled = Delta(before.nr_throttled, after.nr_throttled);
  if (periods && throttled) {
    j["throttled_pct"] =
        *periods > 0 ? RoundTo(100.0 * static_cast<double>(*throttled) / static_cast<double>(*periods), 10) : 0.0;
    j["periods"] = *periods;
    j["throttled_periods"] = *throttled;
  } else {
    j["throttled_pct"] = nullptr;
    j["periods"] = nullptr;
    j["throttled_periods"] = nullptr;
  }
  return j;
}

}  // namespace nasperf::sysinfo::telemetry
