// Tests of TelemetrySampler: on a fake /proc that a test thread rewrites, and on this machine's /proc.
#include "sysinfo/telemetry/telemetry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "testing/fake_root.h"
#include "sysinfo/host_parsers.h"
#include "sysinfo/sysfs_read.h"
#include "report/telemetry_text.h"
#include "testing/proc_fixtures.h"

namespace nasperf::sysinfo::telemetry {
namespace {

using Json = nlohmann::ordered_json;

using nasperf::testing::ProcFixture;

// Replaces a file in one step, as the kernel's files change: the sampler never reads half of one.
void ReplaceFile(const std::string& path, const std::string& text) {
  std::ofstream(path + ".new") << text;
  std::filesystem::rename(path + ".new", path);
}

const Json* FindBy(const Json& list, const char* key, const std::string& value) {
  for (const Json& e : list)
    if (e.value(key, std::string()) == value) return &e;
  return nullptr;
}

TEST(TelemetrySampler, SamplesAFakeProcThatChanges) {
  sysinfo::testing::FakeRoot root;
  for (const char* f : {"stat", "interrupts", "meminfo", "diskstats"})
    root.Write(std::string("/proc/") + f, ProcFixture(std::string(f) + "_a.txt"));
  root.MakeDir("/sys/class/net/eth0");
  root.MakeDir("/sys/class/net/lo");
  // eth0's first queue may land on CPU 0 only; ahci's line has no affinity files (gone, old kernel).
  root.Write("/proc/irq/27/smp_affinity", "1\n");
  root.Write("/proc/irq/27/smp_affinity_list", "0\n");
  for (const char* d : {"sda", "sdb", "nvme0n1", "md127", "loop0", "loop1", "ram0"}) root.MakeDir(std::string("/sys/block/") + d);

  TelemetrySampler sampler(SummariseTelemetry, root.path() + "/proc", root.path() + "/sys");
  sampler.set_interval_ms_for_tests(300);
  std::atomic<int> seen{0};
  auto started = std::chrono::steady_clock::now();
  sampler.Start([&](const Json& sample) {
    EXPECT_TRUE(sample.contains("cpus"));
    ++seen;
  });
  // The baseline is taken inside Start; the machine then "moves" once, before the first sample.
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (const char* f : {"stat", "interrupts", "meminfo", "diskstats"})
      ReplaceFile(root.path() + "/proc/" + f, ProcFixture(std::string(f) + "_b.txt"));
  });
  while (seen < 3 && std::chrono::steady_clock::now() - started < std::chrono::seconds(5))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  writer.join();
  auto stop_at = std::chrono::steady_clock::now();
  Json t = sampler.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - stop_at, std::chrono::milliseconds(200));

  ASSERT_GE(t["samples"].size(), 3u) << t.dump(1);
  EXPECT_EQ(static_cast<size_t>(seen.load()), t["samples"].size());
  EXPECT_EQ(t["interval_s"], 0.3);
  EXPECT_EQ(t["sensors"], "no sensors");  // libsensors is never asked about a fake tree
  const Json& first = t["samples"][0];
  EXPECT_NEAR(first["t_s"].get<double>(), 0.3, 0.15);

  ASSERT_EQ(first["cpus"].size(), 4u) << first.dump(1);
  EXPECT_EQ(first["cpus"][0]["busy_pct"], 100.0);
  EXPECT_NEAR(first["cpus"][0]["softirq_pct"].get<double>(), 89.2, 0.1);
  EXPECT_EQ(first["cpus"][1]["busy_pct"], 10.0);

  // Only NIC and disk lines that fired: eth0's two busy queues, ahci, nvme's four I/O queues.
  const Json& irqs = first["interrupts"];
  EXPECT_EQ(irqs.size(), 7u) << irqs.dump(1);
  const Json* eth0 = FindBy(irqs, "name", "eth0-TxRx-0");
  ASSERT_NE(eth0, nullptr);
  EXPECT_EQ((*eth0)["kind"], "nic");
  EXPECT_EQ((*eth0)["device"], "eth0");
  EXPECT_GT((*eth0)["per_cpu_per_s"][0].get<double>(), 8000);  // 8000 in < 1 s
  EXPECT_EQ((*eth0)["per_cpu_per_s"][1], 0.0);
  EXPECT_EQ((*eth0)["smp_affinity"], "1");
  EXPECT_EQ((*eth0)["smp_affinity_list"], "0");
  const Json* ahci = FindBy(irqs, "device", "ahci");
  ASSERT_NE(ahci, nullptr);
  EXPECT_EQ((*ahci)["kind"], "disk");
  EXPECT_TRUE((*ahci).contains("smp_affinity"));
  EXPECT_TRUE((*ahci)["smp_affinity"].is_null());
  EXPECT_TRUE((*ahci)["smp_affinity_list"].is_null());
  EXPECT_EQ(FindBy(irqs, "name", "i915"), nullptr);

  EXPECT_EQ(first["page_cache_bytes"], (2898120ull + 112340) * 1024);
  EXPECT_TRUE(first.contains("cgroup"));
  EXPECT_TRUE(first["cgroup"].is_null());  // no /proc/self/cgroup in this tree

  // Whole disks from /sys/block; partitions, ram and the unused loop device are not there.
  std::vector<std::string> disks;
  for (const Json& d : first["disks"]) disks.push_back(d["disk"]);
  EXPECT_EQ(disks, (std::vector<std::string>{"loop0", "sda", "sdb", "nvme0n1", "md127"}));
  EXPECT_EQ((*FindBy(first["disks"], "disk", "sda"))["util_pct"], 100.0);  // 990 ms busy in ~300 ms: capped
  EXPECT_GT((*FindBy(first["disks"], "disk", "sda"))["read_mb_per_s"].get<double>(), 110);
  EXPECT_GT((*FindBy(first["disks"], "disk", "nvme0n1"))["write_mb_per_s"].get<double>(), 50);
  EXPECT_EQ((*FindBy(first["disks"], "disk", "sdb"))["util_pct"], 0.0);

  // Nothing moved after that: idle CPUs, no interrupts, idle disks.
  const Json& later = t["samples"][1];
  EXPECT_EQ(later["cpus"][0]["busy_pct"], 0.0);
  EXPECT_EQ(later["cpus"][0]["idle_pct"], 100.0);
  EXPECT_TRUE(later["interrupts"].empty());
  EXPECT_EQ((*FindBy(later["disks"], "disk", "sda"))["util_pct"], 0.0);

  ASSERT_TRUE(t["summary"].is_array());
  EXPECT_FALSE(t["summary"].empty());
  EXPECT_EQ(t["summary"].back(), "no sensors");
}

// The lab's NAS CPU limit: the sampler (the agent) runs in /nasperf-lab, 0.02 CPUs, and
// 787 of the 996 periods of the first interval are throttled.
TEST(TelemetrySampler, SamplesItsOwnCgroupsCpu) {
  sysinfo::testing::FakeRoot root;
  root.Write("/proc/self/cgroup", "2:cpuacct:/nasperf-lab\n1:cpu:/nasperf-lab\n0::/\n");
  const std::string cpu = "/sys/fs/cgroup/cpu/nasperf-lab/";
  root.Write(cpu + "cpu.cfs_quota_us", "2000\n");
  root.Write(cpu + "cpu.cfs_period_us", "100000\n");
  root.Write(cpu + "cpu.stat", "nr_periods 4\nnr_throttled 1\nthrottled_time 10\n");
  root.Write("/sys/fs/cgroup/cpuacct/nasperf-lab/cpuacct.usage", "1000000\n");
  TelemetrySampler sampler(SummariseTelemetry, root.path() + "/proc", root.path() + "/sys");
  sampler.set_interval_ms_for_tests(300);
  std::atomic<int> seen{0};
  sampler.Start([&](const Json&) { ++seen; });
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ReplaceFile(root.path() + cpu + "cpu.stat", "nr_periods 1000\nnr_throttled 788\nthrottled_time 99\n");
    ReplaceFile(root.path() + "/sys/fs/cgroup/cpuacct/nasperf-lab/cpuacct.usage", "7000000\n");
  });
  auto started = std::chrono::steady_clock::now();
  while (seen < 2 && std::chrono::steady_clock::now() - started < std::chrono::seconds(5))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  writer.join();
  Json t = sampler.Stop();
  ASSERT_GE(t["samples"].size(), 2u) << t.dump(1);
  const Json& first = t["samples"][0]["cgroup"];
  ASSERT_TRUE(first.is_object()) << t["samples"][0].dump(1);
  EXPECT_EQ(first["path"], "/nasperf-lab");
  EXPECT_EQ(first["quota_cpus"], 0.02);
  EXPECT_EQ(first["periods"], 996);
  EXPECT_EQ(first["throttled_periods"], 787);
  EXPECT_EQ(first["throttled_pct"], 79.0);
  EXPECT_GT(first["usage_cpus"].get<double>(), 0);  // 6 ms of CPU over the interval, however long it was
  // Nothing moved after that.
  const Json& later = t["samples"][1]["cgroup"];
  EXPECT_EQ(later["usage_cpus"], 0.0);
  EXPECT_EQ(later["throttled_pct"], 0.0);
}

TEST(TelemetrySampler, StopWithoutStartAndMissingFiles) {
  TelemetrySampler never(SummariseTelemetry, "/nonexistent/proc", "/nonexistent/sys");
  Json t = never.Stop();
  EXPECT_EQ(t["interval_s"], 1);
  EXPECT_TRUE(t["samples"].empty());
  EXPECT_EQ(t["sensors"], "no sensors");

  // A root with nothing in it samples nothing, and does not crash.
  TelemetrySampler empty(SummariseTelemetry, "/nonexistent/proc", "/nonexistent/sys");
  empty.set_interval_ms_for_tests(50);
  empty.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(180));
  Json e = empty.Stop();
  ASSERT_GE(e["samples"].size(), 2u);
  EXPECT_TRUE(e["samples"][0]["cpus"].empty());
  EXPECT_TRUE(e["samples"][0]["page_cache_bytes"].is_null());
}

TEST(TelemetrySampler, SamplesThisMachineAtOneHertz) {
  std::vector<int> online = ParseCpuList(ReadFirstLine("/sys/devices/system/cpu/online").value_or(""));
  if (online.empty()) NASPERF_SKIP_OR_FAIL_IN_CI("/sys/devices/system/cpu/online is not readable");
  TelemetrySampler sampler(SummariseTelemetry);
  sampler.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(2200));
  Json t = sampler.Stop();
  ASSERT_GE(t["samples"].size(), 2u) << t.dump(1);
  EXPECT_LE(t["samples"].size(), 3u);
  for (const Json& s : t["samples"]) {
    std::vector<int> cpus;
    for (const Json& c : s["cpus"]) {
      cpus.push_back(c["cpu"]);
      EXPECT_GE(c["busy_pct"].get<double>(), 0);
      EXPECT_LE(c["busy_pct"].get<double>(), 100);
    }
    EXPECT_EQ(cpus, online) << s.dump(1);
    EXPECT_GT(s["page_cache_bytes"].get<double>(), 0);
  }
  EXPECT_NEAR(t["samples"][0]["t_s"].get<double>(), 1.0, 0.3);
  EXPECT_TRUE(t["sensors"].is_string());
  EXPECT_FALSE(t["summary"].empty());
}

}  // namespace
}  // namespace nasperf::sysinfo::telemetry
