// Tests of the host facts: live on this machine, and on a fake /sys and /proc for topology and frequency.
#include "sysinfo/host_info.h"

#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "model/inventory_json.h"
#include "testing/fake_root.h"

namespace nasperf::sysinfo {
namespace {

using nlohmann::ordered_json;

TEST(HostInfo, LiveFactsAreKnownOnThisMachine) {
  ordered_json host = InventoryToJson(GatherHost());
  ASSERT_TRUE(host["cpu"]["model"].is_string());
  EXPECT_FALSE(host["cpu"]["model"].get<std::string>().empty());
  ASSERT_TRUE(host["cpu"]["cores_logical"].is_number_integer());
  EXPECT_GT(host["cpu"]["cores_logical"].get<int64_t>(), 0);
  EXPECT_EQ(host["cpu"]["cores_logical"].get<int64_t>(), sysconf(_SC_NPROCESSORS_ONLN));
  ASSERT_TRUE(host["memory"]["total_bytes"].is_number_unsigned());
  EXPECT_GT(host["memory"]["total_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(host["memory"]["total_bytes"].get<uint64_t>(),
            static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));

  struct utsname uts;
  ASSERT_EQ(uname(&uts), 0);
  EXPECT_EQ(host["os"]["kernel"], uts.release);
  EXPECT_EQ(host["os"]["arch"], uts.machine);
  EXPECT_EQ(host["hostname"], uts.nodename);
  EXPECT_TRUE(host["nics"].is_array());
  for (const ordered_json& nic : host["nics"]) EXPECT_NE(nic["name"], "lo");
}

TEST(HostInfo, KeysAreStableAndValuesNullOrTyped) {
  ordered_json host = InventoryToJson(GatherHost());
  std::vector<std::string> keys;
  for (const auto& [key, value] : host["cpu"].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"model", "cores_logical", "cores_physical", "governor", "mhz_max"}));
  const ordered_json& governor = host["cpu"]["governor"];
  EXPECT_TRUE(governor.is_null() || governor.is_string());
  const ordered_json& mhz = host["cpu"]["mhz_max"];
  EXPECT_TRUE(mhz.is_null() || mhz.get<int64_t>() > 0);
}

TEST(HostInfo, TopologyGovernorAndFrequencyFromFakeSysfs) {
  testing::FakeRoot root;
  root.Write("/proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) Celeron(R) J4125 CPU @ 2.00GHz\n");
  root.Write("/sys/devices/system/cpu/online", "0-3\n");
  const char* governors[] = {"performance", "performance", "powersave", "performance"};
  for (int cpu = 0; cpu < 4; ++cpu) {
    std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
    root.Write(dir + "/topology/physical_package_id", "0\n");
    root.Write(dir + "/topology/core_id", std::to_string(cpu / 2) + "\n");  // 2 threads per core
    root.Write(dir + "/cpufreq/scaling_governor", std::string(governors[cpu]) + "\n");
    root.Write(dir + "/cpufreq/cpuinfo_max_freq", std::to_string(2000000 + cpu * 350000) + "\n");
  }
  ordered_json cpu = InventoryToJson(GatherCpu(root.path()));
  EXPECT_EQ(cpu["model"], "Intel(R) Celeron(R) J4125 CPU @ 2.00GHz");
  EXPECT_EQ(cpu["cores_logical"], 4);
  EXPECT_EQ(cpu["cores_physical"], 2);
  EXPECT_EQ(cpu["governor"], "mixed");
  EXPECT_EQ(cpu["mhz_max"], 3050);

  root.Write("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
  EXPECT_EQ(InventoryToJson(GatherCpu(root.path()))["governor"], "performance");

  std::filesystem::remove(root.path() + "/sys/devices/system/cpu/cpu3/topology/core_id");
  std::filesystem::remove(root.path() + "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor");
  cpu = InventoryToJson(GatherCpu(root.path()));
  EXPECT_TRUE(cpu["cores_physical"].is_null());  // one CPU's topology unknown: the count is unknown
  EXPECT_TRUE(cpu["governor"].is_null());
}

TEST(HostInfo, EmptyRootGivesNullsNotGuesses) {
  testing::FakeRoot root;
  ordered_json cpu = InventoryToJson(GatherCpu(root.path()));
  for (const auto& [key, value] : cpu.items()) EXPECT_TRUE(value.is_null()) << key;
  ordered_json memory = InventoryToJson(GatherMemory(root.path()));
  for (const auto& [key, value] : memory.items()) EXPECT_TRUE(value.is_null()) << key;
  ordered_json host = InventoryToJson(GatherHost(root.path()));
  EXPECT_TRUE(host["os"]["pretty_name"].is_null());
  EXPECT_EQ(host["nics"], ordered_json::array());
}

TEST(HostInfo, MemoryFromFakeMeminfo) {
  testing::FakeRoot root;
  root.Write("/proc/meminfo", "MemTotal: 1000 kB\nMemFree: 10 kB\nMemAvailable: 600 kB\nCached: 300 kB\n");
  ordered_json memory = InventoryToJson(GatherMemory(root.path()));
  EXPECT_EQ(memory["total_bytes"], 1024000);
  EXPECT_EQ(memory["page_cache_bytes"], 307200);
  EXPECT_EQ(memory["available_bytes"], 614400);
}

}  // namespace
}  // namespace nasperf::sysinfo
