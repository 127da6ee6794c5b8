// Tests of the os-release, meminfo, cpuinfo and CPU-list parsers on inline fixtures.
#include "sysinfo/host_parsers.h"

#include <gtest/gtest.h>

namespace nasperf::sysinfo {
namespace {

TEST(HostParsers, OsReleaseUnquotes) {
  auto fields = ParseOsRelease(
      "# comment\n"
      "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
      "NAME='TrueNAS'\n"
      "ID=debian\n"
      "QUOTED=\"say \\\"hi\\\"\"\n"
      "\n"
      "broken line\n");
  EXPECT_EQ(fields["PRETTY_NAME"], "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(fields["NAME"], "TrueNAS");
  EXPECT_EQ(fields["ID"], "debian");
  EXPECT_EQ(fields["QUOTED"], "say \"hi\"");
  EXPECT_EQ(fields.count("broken line"), 0u);
}

TEST(HostParsers, MemInfoInBytes) {
  auto fields = ParseMemInfo(
      "MemTotal:       16303324 kB\n"
      "MemAvailable:   12000000 kB\n"
      "Cached:          2000000 kB\n"
      "HugePages_Total:       0\n"
      "Nonsense: many kB\n");
  EXPECT_EQ(fields["MemTotal"], 16303324ull * 1024);
  EXPECT_EQ(fields["Cached"], 2000000ull * 1024);
  EXPECT_EQ(fields["HugePages_Total"], 0u);
  EXPECT_EQ(fields.count("Nonsense"), 0u);
}

TEST(HostParsers, CpuInfoModelAndCount) {
  CpuInfo x86 = ParseCpuInfo(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7302 16-Core Processor\n\n"
      "processor\t: 1\nmodel name\t: AMD EPYC 7302 16-Core Processor\n");
  EXPECT_EQ(x86.model, "AMD EPYC 7302 16-Core Processor");
  EXPECT_EQ(x86.processors, 2);

  CpuInfo arm =
      ParseCpuInfo("Processor\t: ARMv7 Processor rev 10 (v7l)\nprocessor\t: 0\nHardware\t: Marvell Armada 385\n");
  EXPECT_EQ(arm.model, "ARMv7 Processor rev 10 (v7l)");
  EXPECT_EQ(arm.processors, 1);

  CpuInfo arm64 = ParseCpuInfo("processor\t: 0\nBogoMIPS\t: 48.00\nCPU implementer\t: 0x41\n");
  EXPECT_FALSE(arm64.model.has_value());  // no model line: unknown, not guessed from the implementer
}

TEST(HostParsers, CpuList) {
  EXPECT_EQ(ParseCpuList("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(ParseCpuList("0"), (std::vector<int>{0}));
  EXPECT_TRUE(ParseCpuList("").empty());
  EXPECT_TRUE(ParseCpuList("3-1").empty());
  EXPECT_TRUE(ParseCpuList("a-b").empty());
}

}  // namespace
}  // namespace nasperf::sysinfo
