// Gathers the host section of the inventory from /proc, /sys, /etc and uname(2).
#include "sysinfo/host_info.h"

#include <sys/utsname.h>

#include <set>
#include <utility>

#include "sysinfo/host_parsers.h"
#include "sysinfo/nic_info.h"
#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

std::vector<int> OnlineCpus(const std::string& root) {
  std::optional<std::string> online = ReadFirstLine(root + "/sys/devices/system/cpu/online");
  return online ? ParseCpuList(*online) : std::vector<int>{};
}

}  // namespace

CpuFacts GatherCpu(const std::string& root) {
  std::optional<std::string> cpuinfo_text = ReadFileText(root + "/proc/cpuinfo");
  CpuInfo cpuinfo = cpuinfo_text ? ParseCpuInfo(*cpuinfo_text) : CpuInfo{};
  std::vector<int> online = OnlineCpus(root);

  std::optional<int64_t> logical;
  if (!online.empty()) {
    logical = static_cast<int64_t>(online.size());
  } else if (cpuinfo.processors > 0) {
    logical = cpuinfo.processors;
  }

  // Physical cores and the frequency policy need per-CPU sysfs; any gap makes the answer unknown.
  std::optional<int64_t> physical;
  std::optional<std::string> governor;
  std::optional<int64_t> max_khz;
  if (!online.empty()) {
    std::set<std::pair<int64_t, int64_t>> cores;
    std::set<std::string> governors;
    bool topology_complete = true;
    bool governors_complete = true;
    for (int cpu : online) {
      std::string dir = root + "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
      std::optional<int64_t> package = ReadInt(dir + "/topology/physical_package_id");
      std::optional<int64_t> core = ReadInt(dir + "/topology/core_id");
      if (package && core) {
        cores.emplace(*package, *core);
      } else {
        topology_complete = false;
      }
      if (std::optional<std::string> g = ReadFirstLine(dir + "/cpufreq/scaling_governor")) {
        governors.insert(*g);
      } else {
        governors_complete = false;
      }
      if (std::optional<int64_t> khz = ReadInt(dir + "/cpufreq/cpuinfo_max_freq"); khz && *khz > 0) {
        max_khz = max_khz ? std::max(*max_khz, *khz) : *khz;
      }
    }
    if (topology_complete) physical = static_cast<int64_t>(cores.size());
    if (governors_complete && governors.size() == 1) governor = *governors.begin();
    if (governors_complete && governors.size() > 1) governor = "mixed";
  }

  CpuFacts cpu;
  cpu.model = cpuinfo.model;
  cpu.cores_logical = logical;
  cpu.cores_physical = physical;
  cpu.governor = governor;
  if (max_khz) cpu.mhz_max = *max_khz / 1000;
  return cpu;
}

MemoryFacts GatherMemory(const std::string& root) {
  std::optional<std::string> text = ReadFileText(root + "/proc/meminfo");
  std::map<std::string, uint64_t> meminfo = text ? ParseMemInfo(*text) : std::map<std::string, uint64_t>{};
  auto field = [&](const char* key) {
    auto it = meminfo.find(key);
    return it == meminfo.end() ? std::nullopt : std::optional<uint64_t>(it->second);
  };
  MemoryFacts memory;
  memory.total_bytes = field("MemTotal");
  memory.page_cache_bytes = field("Cached");
  memory.available_bytes = field("MemAvailable");
  return memory;
}

HostInventory GatherHost(const std::string& root) {
  struct utsname uts;
  bool have_uname = uname(&uts) == 0;
  auto uts_field = [&](const char* value) {
    return have_uname && value[0] != '\0' ? std::optional<std::string>(value) : std::nullopt;
  };

  std::optional<std::string> os_text = ReadFileText(root + "/etc/os-release");
  if (!os_text) os_text = ReadFileText(root + "/usr/lib/os-release");
  std::map<std::string, std::string> os_release =
      os_text ? ParseOsRelease(*os_text) : std::map<std::string, std::string>{};
  auto pretty = os_release.find("PRETTY_NAME");

  HostInventory host;
  host.hostname = uts_field(uts.nodename);
  host.cpu = GatherCpu(root);
  host.memory = GatherMemory(root);
  if (pretty != os_release.end() && !pretty->second.empty()) host.os.pretty_name = pretty->second;
  host.os.kernel = uts_field(uts.release);
  host.os.arch = uts_field(uts.machine);
  host.nics = ListNics(root);
  return host;
}

}  // namespace nasperf::sysinfo
