// Tests of the telemetry /proc parsers against fixture files in testdata/.
#include "sysinfo/telemetry/proc_parsers.h"

#include <gtest/gtest.h>

#include "testing/proc_fixtures.h"

namespace nasperf::sysinfo::telemetry {
namespace {

using nasperf::testing::ProcFixture;

TEST(TelemetryParsers, ProcStatPerCpuShares) {
  std::vector<CpuTicks> a = ParseProcStat(ProcFixture("stat_a.txt")), b = ParseProcStat(ProcFixture("stat_b.txt"));
  ASSERT_EQ(a.size(), 4u);  // the "cpu" total line is not a CPU
  EXPECT_EQ(a[0].cpu, 0);
  EXPECT_EQ(a[3].cpu, 3);
  EXPECT_EQ(a[0].softirq, 90100u);
  std::vector<CpuPercent> p = CpuDeltas(a, b);
  ASSERT_EQ(p.size(), 4u);
  // CPU0: 5 user, 5 system, 83 softirq of 93 ticks: all busy.
  EXPECT_NEAR(p[0].busy, 100, 0.01);
  EXPECT_NEAR(p[0].softirq, 100.0 * 83 / 93, 0.01);
  EXPECT_NEAR(p[0].user, 100.0 * 5 / 93, 0.01);
  // CPU1: 5 + 5 busy, 89 idle, 1 iowait of 100: 10 % busy (iowait is not busy).
  EXPECT_NEAR(p[1].busy, 10, 0.01);
  EXPECT_NEAR(p[1].iowait, 1, 0.01);
  EXPECT_NEAR(p[1].idle, 89, 0.01);
  // No time elapsed: idle, not a division by zero.
  std::vector<CpuPercent> same = CpuDeltas(a, a);
  EXPECT_EQ(same[0].busy, 0);
  EXPECT_EQ(same[0].idle, 100);
  EXPECT_TRUE(ParseProcStat("garbage\ncpuX 1 2 3 4\n").empty());
}

TEST(TelemetryParsers, InterruptsColumnsAndNames) {
  Interrupts irq = ParseInterrupts(ProcFixture("interrupts_a.txt"));
  EXPECT_EQ(irq.cpus, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(irq.lines.size(), 19u);  // numbered lines only: NMI, LOC, ERR... are not devices
  EXPECT_EQ(irq.lines[0].irq, "0");
  EXPECT_EQ(irq.lines[0].name, "timer");
  EXPECT_EQ(irq.lines[4].name, "i801_smbus, ehci_hcd:usb1");
  EXPECT_EQ(irq.lines[6].name, "ahci[0000:00:1f.2]");
  EXPECT_EQ(irq.lines[6].per_cpu, (std::vector<uint64_t>{1804020, 0, 0, 0}));

  Interrupts virtio = ParseInterrupts(ProcFixture("interrupts_virtio.txt"));
  EXPECT_EQ(virtio.cpus, (std::vector<int>{0, 1}));
  ASSERT_EQ(virtio.lines.size(), 10u);
  EXPECT_EQ(virtio.lines[6].name, "virtio2-config");
  EXPECT_EQ(virtio.lines[8].name, "virtio2-output.0");
  EXPECT_EQ(virtio.lines[9].name, "uhci_hcd:usb1, e1000");
}

TEST(TelemetryParsers, ClassifiesNicAndDiskInterrupts) {
  auto kind = [](std::string_view n, const std::map<std::string, std::string>& nics = {}) {
    return ClassifyIrq(n, nics).kind;
  };
  for (const char* nic : {"eth0", "eth0-TxRx-0", "enp3s0-rx-1", "ens18", "virtio2-input.0", "virtio2-output.0",
                          "mlx5_comp0@pci:0000:01:00.0", "igb", "e1000", "ixgbe", "r8169-0-300", "uhci_hcd:usb1, e1000"})
    EXPECT_EQ(kind(nic), IrqKind::kNic) << nic;
  for (const char* disk : {"ahci[0000:00:1f.2]", "ahci", "nvme0q1", "virtio1-req.0", "megasas", "mpt3sas0-msix0",
                           "sata_sil24", "ata_piix"})
    EXPECT_EQ(kind(disk), IrqKind::kDisk) << disk;
  for (const char* other : {"timer", "i8042", "xhci_hcd", "i915", "virtio0-stats", "acpi", "ehci_hcd:usb2", "ethics"})
    EXPECT_EQ(kind(other), IrqKind::kOther) << other;

  // The interface list maps a virtio device back to its interface, and names that no pattern knows.
  std::map<std::string, std::string> nics{{"virtio2", "eth0"}, {"eth0", "eth0"}, {"wan", "wan"}};
  EXPECT_EQ(ClassifyIrq("virtio2-config", nics).device, "eth0");
  EXPECT_EQ(ClassifyIrq("virtio2-input.0", nics).device, "eth0");
  EXPECT_EQ(ClassifyIrq("wan-rx-0", nics).kind, IrqKind::kNic);
  EXPECT_EQ(ClassifyIrq("wanderer", nics).kind, IrqKind::kOther);
  EXPECT_EQ(ClassifyIrq("eth0-TxRx-3").device, "eth0");
  EXPECT_EQ(ClassifyIrq("nvme0q3").device, "nvme0");
  EXPECT_EQ(ClassifyIrq("ahci[0000:00:1f.2]").device, "ahci");
  EXPECT_EQ(ClassifyIrq("virtio1-req.0").device, "virtio1-req");
}

TEST(TelemetryParsers, DiskStatsWholeDisksAndRates) {
  std::vector<DiskCounters> a = ParseDiskStats(ProcFixture("diskstats_a.txt"));
  std::vector<DiskCounters> b = ParseDiskStats(ProcFixture("diskstats_b.txt"));
  ASSERT_EQ(a.size(), 12u);
  EXPECT_EQ(a[4].name, "sda");
  EXPECT_EQ(a[4].sectors_read, 412330112u);
  EXPECT_EQ(a[4].io_ticks_ms, 1882100u);

  // Name rule (no /sys/block): partitions, ram and unused loop devices are left out.
  std::vector<std::string> kept;
  for (const DiskCounters& d : a)
    if (IsSampledDisk(d, {})) kept.push_back(d.name);
  EXPECT_EQ(kept, (std::vector<std::string>{"loop0", "sda", "sdb", "nvme0n1", "md127"}));
  // /sys/block decides when it is there.
  EXPECT_TRUE(IsSampledDisk(a[4], {"sda", "sdb"}));
  EXPECT_FALSE(IsSampledDisk(a[5], {"sda", "sdb"}));
  EXPECT_FALSE(IsSampledDisk(a[1], {"loop1", "sda"}));  // unused loop device

  std::vector<DiskRates> r = DiskDeltas(a, b, 1.0);
  auto find = [&](const std::string& n) {
    for (const DiskRates& x : r)
      if (x.name == n) return x;
    ADD_FAILURE() << n;
    return DiskRates{};
  };
  EXPECT_NEAR(find("sda").util_pct, 99, 0.01);
  EXPECT_NEAR(find("sda").read_mb_per_s, 214844 * 512 / 1e6, 0.001);
  EXPECT_EQ(find("sda").write_mb_per_s, 0);
  EXPECT_EQ(find("sdb").util_pct, 0);
  EXPECT_NEAR(find("nvme0n1").write_mb_per_s, 97656 * 512 / 1e6, 0.001);
  EXPECT_NEAR(find("nvme0n1").util_pct, 30, 0.01);
  // Over two seconds the same counts are half the rate.
  EXPECT_NEAR(DiskDeltas(a, b, 2.0)[4].read_mb_per_s, 214844 * 512 / 2e6, 0.001);
}

TEST(TelemetryParsers, PageCacheIsCachedPlusBuffers) {
  EXPECT_EQ(PageCacheBytes(ProcFixture("meminfo_a.txt")), (1874120ull + 112340) * 1024);
  EXPECT_EQ(PageCacheBytes(ProcFixture("meminfo_b.txt")), (2898120ull + 112340) * 1024);
  EXPECT_EQ(PageCacheBytes("MemTotal: 100 kB\n"), std::nullopt);
}

}  // namespace
}  // namespace nasperf::sysinfo::telemetry
