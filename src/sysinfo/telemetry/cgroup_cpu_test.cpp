// Tests of the sampler's cgroup CPU reader on fake /proc and /sys trees (v1, v1 combined, v2).
#include "sysinfo/telemetry/cgroup_cpu.h"

#include <gtest/gtest.h>

#include "testing/fake_root.h"

namespace nasperf::sysinfo::telemetry {
namespace {

using Json = nlohmann::ordered_json;
using sysinfo::testing::FakeRoot;

// The lab's NAS: the servers and the agent in /nasperf-lab, 2000 us of every 100000 us.
void WriteLabV1(const FakeRoot& root, uint64_t periods, uint64_t throttled, uint64_t usage_ns) {
  root.Write("/proc/self/cgroup", "9:name=systemd:/\n4:memory:/\n2:cpuacct:/nasperf-lab\n1:cpu:/nasperf-lab\n0::/\n");
  root.Write("/sys/fs/cgroup/cpu/nasperf-lab/cpu.cfs_quota_us", "2000\n");
  root.Write("/sys/fs/cgroup/cpu/nasperf-lab/cpu.cfs_period_us", "100000\n");
  root.Write("/sys/fs/cgroup/cpu/nasperf-lab/cpu.stat", "nr_periods " + std::to_string(periods) + "\nnr_throttled " +
                                                            std::to_string(throttled) +
                                                            "\nthrottled_time 123456789\nnr_bursts 0\nburst_time 0\n");
  root.Write("/sys/fs/cgroup/cpuacct/nasperf-lab/cpuacct.usage", std::to_string(usage_ns) + "\n");
}

TEST(CgroupCpu, ParsesProcSelfCgroup) {
  ProcSelfCgroup p = ParseProcSelfCgroup("12:cpu,cpuacct:/docker/ab:cd\n3:cpuset:/\n0::/system.slice/nas.service\n");
  EXPECT_EQ(p.v1_cpu, "/docker/ab:cd");  // a ':' in the path is the path's
  EXPECT_EQ(p.v1_cpuacct, "/docker/ab:cd");
  EXPECT_EQ(p.v2, "/system.slice/nas.service");
  ProcSelfCgroup v2 = ParseProcSelfCgroup("0::/\n");
  EXPECT_FALSE(v2.v1_cpu);
  EXPECT_EQ(v2.v2, "/");
  ProcSelfCgroup junk = ParseProcSelfCgroup("garbage\n1:cpuset:/x\n2:cpuacctx:/y\n");
  EXPECT_FALSE(junk.v1_cpu);  // "cpuset" and "cpuacctx" are not "cpu" or "cpuacct"
  EXPECT_FALSE(junk.v1_cpuacct);
}

TEST(CgroupCpu, ParsesCpuMaxAndCpuStat) {
  EXPECT_EQ(ParseCpuMax("200000 100000\n"), 2.0);
  EXPECT_EQ(ParseCpuMax("2000 100000"), 0.02);
  EXPECT_FALSE(ParseCpuMax("max 100000\n"));
  EXPECT_FALSE(ParseCpuMax(""));
  std::map<std::string, uint64_t> stat = ParseFlatKeyed("nr_periods 996\nnr_throttled 787\nbad line here\nx -1\n");
  EXPECT_EQ(stat, (std::map<std::string, uint64_t>{{"nr_periods", 996}, {"nr_throttled", 787}}));
}

// The lab's --nas-cpu 2 as the lab helper measured it: 787 of 996 periods throttled.
TEST(CgroupCpu, V1QuotaUseAndThrottlingOverAnInterval) {
  FakeRoot root;
  WriteLabV1(root, 10, 2, 5'000'000'000);
  std::optional<CgroupCpuFiles> f = FindCgroupCpu(root.path() + "/proc", root.path() + "/sys");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->path, "/nasperf-lab");
  EXPECT_FALSE(f->v2);
  CgroupCpuReading before = ReadCgroupCpu(*f);
  EXPECT_EQ(before.quota_cpus, 0.02);
  EXPECT_EQ(before.usage_ns, 5'000'000'000u);
  WriteLabV1(root, 1006, 789, 5'000'000'000 + 40'000'000);  // 0.04 CPU-seconds in 2 s
  CgroupCpuReading after = ReadCgroupCpu(*f);
  Json j = CgroupCpuJson(*f, before, after, 2.0);
  EXPECT_EQ(j, Json::parse(R"({"path": "/nasperf-lab", "quota_cpus": 0.02, "usage_cpus": 0.02,
                               "throttled_pct": 79.0, "periods": 996, "throttled_periods": 787})"))
      << j.dump();
}

TEST(CgroupCpu, V1CombinedMountAndNoQuota) {
  FakeRoot root;
  root.Write("/proc/self/cgroup", "5:cpu,cpuacct:/docker/abc\n");
  root.Write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1\n");
  root.Write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  root.Write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.stat", "nr_periods 0\nnr_throttled 0\n");
  root.Write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpuacct.usage", "1000\n");
  std::optional<CgroupCpuFiles> f = FindCgroupCpu(root.path() + "/proc", root.path() + "/sys");
  ASSERT_TRUE(f);
  CgroupCpuReading r = ReadCgroupCpu(*f);
  CgroupCpuReading later = r;
  later.usage_ns = 1000 + 1'500'000'000;
  Json j = CgroupCpuJson(*f, r, later, 1.0);
  // Not the root: the object is there, its quota unlimited, no period elapsed.
  EXPECT_EQ(j, Json::parse(R"({"path": "/docker/abc", "quota_cpus": null, "usage_cpus": 1.5,
                               "throttled_pct": 0.0, "periods": 0, "throttled_periods": 0})"))
      << j.dump();
}

TEST(CgroupCpu, RootCgroupWithoutAQuotaIsNull) {
  FakeRoot root;  // this machine's shape: "1:cpu:/", no quota
  root.Write("/proc/self/cgroup", "2:cpuacct:/\n1:cpu:/\n0::/\n");
  root.Write("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
  root.Write("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
  root.Write("/sys/fs/cgroup/cpuacct/cpuacct.usage", "43307548255840\n");
  std::optional<CgroupCpuFiles> f = FindCgroupCpu(root.path() + "/proc", root.path() + "/sys");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->path, "/");
  CgroupCpuReading r = ReadCgroupCpu(*f);
  EXPECT_TRUE(CgroupCpuJson(*f, r, r, 1.0).is_null());
}

TEST(CgroupCpu, V2OnlyReadsCpuMaxAndCpuStat) {
  FakeRoot root;
  root.Write("/proc/self/cgroup", "0::/nas.slice/smbd.service\n");
  root.Write("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
  root.Write("/sys/fs/cgroup/nas.slice/smbd.service/cpu.max", "50000 100000\n");
  root.Write("/sys/fs/cgroup/nas.slice/smbd.service/cpu.stat",
             "usage_usec 1000000\nuser_usec 600000\nsystem_usec 400000\nnr_periods 100\nnr_throttled 10\n"
             "throttled_usec 5000\n");
  std::optional<CgroupCpuFiles> f = FindCgroupCpu(root.path() + "/proc", root.path() + "/sys");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->v2);
  CgroupCpuReading before = ReadCgroupCpu(*f);
  EXPECT_EQ(before.quota_cpus, 0.5);
  root.Write("/sys/fs/cgroup/nas.slice/smbd.service/cpu.stat", "usage_usec 1500000\nnr_periods 110\nnr_throttled 16\n");
  Json j = CgroupCpuJson(*f, before, ReadCgroupCpu(*f), 1.0);
  EXPECT_EQ(j, Json::parse(R"({"path": "/nas.slice/smbd.service", "quota_cpus": 0.5, "usage_cpus": 0.5,
                               "throttled_pct": 60.0, "periods": 10, "throttled_periods": 6})"))
      << j.dump();
}

TEST(CgroupCpu, NothingReadableIsNoCgroup) {
  FakeRoot root;
  EXPECT_FALSE(FindCgroupCpu(root.path() + "/proc", root.path() + "/sys"));
  root.Write("/proc/self/cgroup", "1:cpu:/gone\n");  // its directory is not there
  EXPECT_FALSE(FindCgroupCpu(root.path() + "/proc", root.path() + "/sys"));
  root.Write("/proc/self/cgroup", "0::/x\n");  // v2 named but not mounted at /sys/fs/cgroup
  EXPECT_FALSE(FindCgroupCpu(root.path() + "/proc", root.path() + "/sys"));
}

}  // namespace
}  // namespace nasperf::sysinfo::telemetry
