// Tests of each rule: it fires on the evidence that should produce it, with its exact
// evidence lines, and stays quiet on the healthy 1 GbE case and when its evidence is missing.
#include "diagnose/rules/rules.h"

#include <gtest/gtest.h>

#include "diagnose/test_evidence.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

using testing::HealthyGbE;
using Lines = std::vector<std::string>;

std::optional<Cause> Apply(RuleFn rule, const Evidence& e) { return rule(e, BuildWaterfall(e)); }

TEST(Rules, NoneFiresOnTheHealthyGbELink) {
  const Evidence e = HealthyGbE();
  const Waterfall w = BuildWaterfall(e);
  for (RuleFn rule : AllRules()) {
    std::optional<Cause> c = rule(e, w);
    EXPECT_FALSE(c.has_value()) << c->rule << ": " << c->summary;
  }
}

TEST(LinkBelowRating, FiresOn100MbitOnAGigabitNic) {
  Evidence e = HealthyGbE();
  e.client.nic->speed_mbps = 100;
  std::optional<Cause> c = Apply(LinkBelowRating, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rule, "link-below-rating");
  EXPECT_EQ(c->layer, "network");
  EXPECT_EQ(c->summary, "the client's link negotiated 100 Mbit/s on a 1 GbE NIC: check the cable and the switch port");
  EXPECT_EQ(c->evidence, (Lines{"client eth0: negotiated 100 Mbit/s, rated 1000 Mbit/s"}));
}

TEST(LinkBelowRating, FiresOnHalfDuplex) {
  Evidence e = HealthyGbE();
  e.nas.nic->duplex = "half";
  std::optional<Cause> c = Apply(LinkBelowRating, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->evidence, (Lines{"NAS eth0: half duplex"}));
}

TEST(LinkBelowRating, QuietWithoutTheRatedSpeed) {
  Evidence e = HealthyGbE();
  e.client.nic->speed_mbps = 100;
  e.client.nic_rated_mbps.reset();
  EXPECT_FALSE(Apply(LinkBelowRating, e));
}

TEST(LinkPathCapped, FiresOnThePciNic) {
  std::optional<Cause> c = Apply(LinkPathCapped, testing::PciNic());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rule, "link-path-capped");
  EXPECT_EQ(c->summary,
            "the link path caps at 64 MB/s, 51 % of 1 GbE; not the disks (they read 200 MB/s): disks and protocol "
            "could do more");
  EXPECT_EQ(
      c->evidence,
      (Lines{"network: best 64 MB/s (51 % of the 1 GbE line rate, 125 MB/s)",
             "TCP payload maximum for MTU 1500: 118 MB/s", "client CPU: all 10 % busy, busiest core (CPU 1) 12 % busy",
             "NAS CPU: all 10 % busy, busiest core (CPU 1) 12 % busy", "TCP retransmits: 0.00 % of segments",
             "NAS volume: 200 MB/s read", "NAS NIC eth0 on pci 0000:02:00.0 (driver e1000e)"}));
}

TEST(LinkPathCapped, QuietWhenACpuIsBusy) {
  Evidence e = testing::PciNic();
  e.nas.cpu_top->busy_pct = kCoreBusyPct;
  EXPECT_FALSE(Apply(LinkPathCapped, e));
  e = testing::PciNic();
  e.client.cpu_all->busy_pct = kCpuBusyAllPct;
  EXPECT_FALSE(Apply(LinkPathCapped, e));
}

TEST(LinkPathCapped, QuietWhenRetransmitsAreHighOrUncounted) {
  Evidence e = testing::PciNic();
  e.net.retransmit_pct = 2.5;
  EXPECT_FALSE(Apply(LinkPathCapped, e));
  e.net.retransmit_pct.reset();
  e.net.retransmits.reset();
  EXPECT_FALSE(Apply(LinkPathCapped, e));
}

TEST(LinkPathCapped, QuietWhenTheNasCpuWasNotMeasured) {
  Evidence e = testing::PciNic();
  e.nas.cpu_all.reset();
  EXPECT_FALSE(Apply(LinkPathCapped, e));
}

TEST(MtuMismatch, FiresOnJumboFramesOnOneSide) {
  Evidence e = HealthyGbE();
  e.nas.nic->mtu = 9000;
  std::optional<Cause> c = Apply(MtuMismatch, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->summary,
            "the MTU differs: client 1500, NAS 9000 (jumbo frames on one side only); set both ends (and the switch) "
            "alike");
  EXPECT_EQ(c->evidence, (Lines{"client eth0: MTU 1500", "NAS eth0: MTU 9000"}));
}

TEST(MtuMismatch, QuietWithoutTheNasNic) {
  Evidence e = HealthyGbE();
  e.nas.nic.reset();
  EXPECT_FALSE(Apply(MtuMismatch, e));
}

// The healthy case with the NAS's services in the lab's cgroup, held to `quota` CPUs of
// which they used `used`, throttled in `throttled_pct` % of periods at the worst second.
Evidence ThrottledNas(double quota, double used, double throttled_pct) {
  Evidence e = HealthyGbE();
  e.nas.cgroup_path = "/nasperf-lab";
  e.nas.cgroup_quota_cpus = quota;
  e.nas.cgroup_usage_cpus = used;
  e.nas.cgroup_throttled_pct = throttled_pct;
  return e;
}

TEST(NasCpuSaturated, FiresWhenEveryCoreIsBusy) {
  Evidence e = HealthyGbE();
  e.nas.cpu_all = CpuPeak{-1, 95, 20, 1};
  e.nas.cpu_top = CpuPeak{0, 97, 25, 1};
  e.nas.cpus = {CpuPeak{0, 97, 25, 1}, CpuPeak{1, 93, 15, 1}};
  e.net.down_4_mb_per_s = 70;
  e.protocol_seq.read_mb_per_s = 50;
  e.protocol_seq.write_mb_per_s = 45;
  std::optional<Cause> c = Apply(NasCpuSaturated, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "NAS CPU");
  EXPECT_EQ(c->summary,
            "the NAS's CPU is saturated: all 2 cores 95 % busy while the protocol moved 45 MB/s write, 39 % of the "
            "116 MB/s beneath it");
  EXPECT_EQ(c->evidence, (Lines{"NAS CPU: all 95 % busy at the busiest second (softirq 20 %, irq 1 %)",
                                "NAS CPU 0: 97 % busy", "NAS CPU 1: 93 % busy",
                                // Both directions short: the one furthest short (45 of 116 against 50 of 112).
                                "protocol 1M sequential write: 45 MB/s, 39 % of the lower of network up (116 MB/s) "
                                "and NAS storage write (380 MB/s)"}));
  // And the link path is then not blamed.
  EXPECT_FALSE(Apply(LinkPathCapped, e));
}

// The lab's NAS shares the client's machine (and a container's NAS shares its host):
// /proc/stat is the whole machine, busy with the client's own load, while the protocol
// runs at the link's rate. Not the NAS's CPU.
TEST(NasCpuSaturated, QuietWhenTheProtocolReachedTheLinkOnABusySharedMachine) {
  Evidence e = HealthyGbE();
  e.nas.cpu_all = CpuPeak{-1, 100, 30, 1};
  e.nas.cpu_top = CpuPeak{0, 100, 40, 1};
  e.nas.cpus = {CpuPeak{0, 100, 40, 1}, CpuPeak{1, 100, 20, 1}};
  e.protocol_seq.read_mb_per_s = 116;
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
}

TEST(Rules, NoneFiresOnTheHealthyGbELinkOnABusySharedMachine) {
  Evidence e = HealthyGbE();
  for (HostEvidence* h : {&e.client, &e.nas}) {
    h->cpu_all = CpuPeak{-1, 100, 30, 1};
    h->cpu_top = CpuPeak{0, 100, 40, 1};
    h->cpus = {CpuPeak{0, 100, 40, 1}, CpuPeak{1, 100, 20, 1}};
  }
  e.client_cpu_busy_pct = 100;
  e.protocol_seq.read_mb_per_s = 116;
  const Waterfall w = BuildWaterfall(e);
  for (RuleFn rule : AllRules()) {
    std::optional<Cause> c = rule(e, w);
    EXPECT_FALSE(c.has_value()) << c->rule << ": " << c->summary;
  }
}

// The lab's NAS CPU limit (and a container's): a cgroup quota of 0.02 CPUs, throttled in
// 79 % of its periods, while the machine's own CPUs are mostly idle.
TEST(NasCpuSaturated, FiresOnACgroupQuotaThrottledWhileTheProtocolFellShort) {
  Evidence e = ThrottledNas(0.02, 0.0198, 79);
  e.protocol_seq.read_mb_per_s = 37;
  e.protocol_seq.write_mb_per_s = 30;
  std::optional<Cause> c = Apply(NasCpuSaturated, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rule, "nas-cpu-saturated");
  EXPECT_EQ(c->layer, "NAS CPU");
  EXPECT_EQ(c->summary,
            "the NAS's CPU quota is saturated: its cgroup /nasperf-lab may use 0.02 CPUs and was throttled in 79 % "
            "of periods while the protocol moved 30 MB/s write, 25 % of the 118 MB/s beneath it");
  EXPECT_EQ(c->evidence,
            (Lines{"NAS cgroup /nasperf-lab: quota 0.02 CPUs, used 0.020 CPUs (99 % of the quota), throttled in "
                   "79 % of periods, at its most throttled second",
                   "NAS CPU: all 10 % busy at the busiest second (the machine's, which the cgroup shares)",
                   "protocol 1M sequential write: 30 MB/s, 25 % of the lower of the link's TCP payload maximum "
                   "(118 MB/s; network up measured 116 MB/s) and NAS storage write (380 MB/s)"}));
  // Throttled less than half the time, or using well under its quota: not the quota.
  e.nas.cgroup_throttled_pct = 40;
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
  e.nas.cgroup_throttled_pct = 79;
  e.nas.cgroup_usage_cpus = 0.01;
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
  // The same quota with the protocol at the link's rate both ways: not the CPU.
  e.nas.cgroup_usage_cpus = 0.0198;
  e.protocol_seq.read_mb_per_s = 110;
  e.protocol_seq.write_mb_per_s = 108;
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
}

// Issue 33, the lab at --nas-cpu 10 over SMB: the read reached the link (111 MB/s) while the
// throttled server wrote 31. The write is short of what is beneath it, and the rule says so
// for the write, rather than weighing only the better direction and staying quiet.
TEST(NasCpuSaturated, FiresOnTheDirectionTheQuotaHeldBack) {
  Evidence e = ThrottledNas(0.10, 0.099, 100);
  e.protocol_seq.read_mb_per_s = 111;
  e.protocol_seq.write_mb_per_s = 31;
  std::optional<Cause> c = Apply(NasCpuSaturated, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->summary,
            "the NAS's CPU quota is saturated: its cgroup /nasperf-lab may use 0.10 CPUs and was throttled in 100 % "
            "of periods while the protocol moved 31 MB/s write, 26 % of the 118 MB/s beneath it");
  EXPECT_EQ(c->evidence.back(),
            "protocol 1M sequential write: 31 MB/s, 26 % of the lower of the link's TCP payload maximum (118 MB/s; "
            "network up measured 116 MB/s) and NAS storage write (380 MB/s)");
  // The protocol-limited rule defers to it, so no second verdict names the protocol.
  EXPECT_FALSE(Apply(ProtocolLimited, e));
}

// The lab's quota holds back the agent's network test as much as the protocol: the
// measured network is then no ceiling of the path, the link's payload maximum is.
TEST(NasCpuSaturated, FiresWhenTheQuotaHeldBackTheNetworkTestToo) {
  Evidence e = ThrottledNas(0.02, 0.0198, 79);
  e.net.down_1_mb_per_s = 40;
  e.net.down_4_mb_per_s = 41;
  e.net.up_1_mb_per_s = 35;
  e.net.up_4_mb_per_s = 36;
  e.protocol_seq.read_mb_per_s = 37;
  e.protocol_seq.write_mb_per_s = 30;
  std::optional<Cause> c = Apply(NasCpuSaturated, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rule, "nas-cpu-saturated");
  EXPECT_NE(c->evidence.back().find("the link's TCP payload maximum (118 MB/s; network up measured 36 MB/s)"),
            std::string::npos)
      << c->evidence.back();
}

// Busy cores on a link path capped below its line (the PCI NIC on a machine busy for other
// reasons): the protocol reached what the network carried, so not the CPU.
TEST(NasCpuSaturated, BusyCoresAtTheNetworksFigureAreNotTheCpu) {
  Evidence e = testing::PciNic();
  e.nas.cpu_all = CpuPeak{-1, 100, 2, 1};
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
}

TEST(NasCpuSaturated, QuietWithoutTheNetwork) {
  Evidence e = HealthyGbE();
  e.nas.cpu_all = CpuPeak{-1, 95, 20, 1};
  e.protocol_seq.read_mb_per_s = 50;
  e.net = NetEvidence{};  // short of what, cannot be told
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
}

TEST(NasCpuSaturated, QuietWhenTheNasWasNotMeasured) {
  Evidence e = HealthyGbE();
  e.nas.cpu_all = CpuPeak{-1, 95, 20, 1};
  e.nas.measured = false;
  EXPECT_FALSE(Apply(NasCpuSaturated, e));
}

TEST(IrqImbalance, FiresOnOneCoreTakingTheNicsInterrupts) {
  Evidence e = HealthyGbE();
  e.nas.cores_logical = 4;
  e.nas.cpus = {CpuPeak{0, 96, 95, 1}, CpuPeak{1, 3, 0, 0}, CpuPeak{2, 2, 0, 0}, CpuPeak{3, 1, 0, 0}};
  e.nas.cpu_top = e.nas.cpus[0];
  e.nas.cpu_all = CpuPeak{-1, 25.5, 23.75, 0.25};
  e.protocol_seq.read_mb_per_s = 60;  // well short of the 117 MB/s beneath
  e.protocol_seq.write_mb_per_s = 55;
  IrqLanding irq;
  irq.irq = "24";
  irq.name = "eth0-rx-0";
  irq.kind = "nic";
  irq.device = "eth0";
  irq.top_cpu = 0;
  irq.top_share = 1;
  irq.count = 24000;
  irq.smp_affinity = "1";
  e.nas.irqs = {irq};
  std::optional<Cause> c = Apply(IrqImbalance, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "NAS CPU");
  EXPECT_EQ(c->summary,
            "interrupts are not balanced on the NAS: CPU 0 is 96 % busy (96 % irq and softirq) while the other 3 "
            "average 2 % busy; IRQ 24 land there (/proc/irq/N/smp_affinity, irqbalance)");
  EXPECT_EQ(c->evidence, (Lines{"NAS CPU 0: 96 % busy, softirq 95 %, irq 1 %",
                                "IRQ 24 (eth0-rx-0, eth0): 100 % of 24000 interrupts on CPU 0, smp_affinity 1",
                                "protocol 1M sequential write: 55 MB/s, 47 % of the lower of network up (116 MB/s) "
                                "and NAS storage write (380 MB/s)"}));
}

TEST(IrqImbalance, QuietWhenTheProtocolReachedTheLink) {
  Evidence e = HealthyGbE();
  e.nas.cpus = {CpuPeak{0, 96, 95, 1}, CpuPeak{1, 3, 0, 0}};
  e.nas.cpu_top = e.nas.cpus[0];
  e.protocol_seq.read_mb_per_s = 110;  // 94 % of the 117 MB/s beneath: the core keeps up
  EXPECT_FALSE(Apply(IrqImbalance, e));
  e.protocol_seq.read_mb_per_s = 60;
  e.protocol_seq.write_mb_per_s = 55;
  EXPECT_TRUE(Apply(IrqImbalance, e));
}

TEST(IrqImbalance, QuietWhenTheBusyCoreIsNotInterrupts) {
  Evidence e = HealthyGbE();
  e.nas.cpus = {CpuPeak{0, 96, 5, 0}, CpuPeak{1, 3, 0, 0}};
  e.nas.cpu_top = e.nas.cpus[0];
  EXPECT_FALSE(Apply(IrqImbalance, e));
}

TEST(IrqImbalance, QuietWhenTheOtherCoresAreBusyToo) {
  Evidence e = HealthyGbE();
  e.nas.cpus = {CpuPeak{0, 96, 90, 0}, CpuPeak{1, 60, 10, 0}};
  e.nas.cpu_top = e.nas.cpus[0];
  EXPECT_FALSE(Apply(IrqImbalance, e));
}

TEST(DiskLimited, FiresWhenTheProtocolMatchesTheVolumeBelowTheNetwork) {
  Evidence e = HealthyGbE();
  e.members[0].seq.read_mb_per_s = 85;
  e.volume_seq.read_mb_per_s = 80;
  e.volume_seq.write_mb_per_s = 300;
  e.protocol_seq.read_mb_per_s = 75;
  e.protocol_seq.write_mb_per_s = 70;
  std::optional<Cause> c = Apply(DiskLimited, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "NAS volume");
  EXPECT_EQ(c->summary,
            "the disks cap it: the protocol's 75 MB/s read is within 15 % of the volume's own 80 MB/s, below the "
            "network's 117 MB/s");
  EXPECT_EQ(c->evidence, (Lines{"protocol 1M sequential read: 75 MB/s",
                                "NAS volume 1M sequential read (run --on): 80 MB/s", "network down: 117 MB/s"}));
  EXPECT_EQ(BuildWaterfall(e).cap_layer, "NAS volume");
}

TEST(DiskLimited, QuietWithoutTheNetwork) {
  Evidence e = HealthyGbE();
  e.volume_seq.read_mb_per_s = 80;
  e.protocol_seq.read_mb_per_s = 75;
  e.net = NetEvidence{};
  EXPECT_FALSE(Apply(DiskLimited, e));
}

TEST(RaidNotScaling, Raid0OfTwoMembersAtSixtyPercent) {
  std::optional<Cause> c = Apply(RaidNotScaling, testing::Raid0TwoMembers());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rule, "raid-not-scaling");
  EXPECT_EQ(c->summary,
            "the raid0 volume reads 120 MB/s, 0.60 of the 200 MB/s expected from its 2 members (sum of 2 members); "
            "the evidence shows no cause");
  EXPECT_EQ(c->evidence, (Lines{"member /dev/sdb: 100 MB/s raw 512K read (controller ahci)",
                                "member /dev/sdc: 100 MB/s raw 512K read (controller ahci)",
                                "expected for raid0: 200 MB/s (sum of 2 members)",
                                "NAS volume 1M sequential read (run --on): 120 MB/s, ratio 0.60",
                                "writes: up to the sum too, if each member writes as fast as it reads"}));
}

TEST(RaidNotScaling, NamesIdeModeASlowMemberAndABusyCore) {
  Evidence e = testing::Raid0TwoMembers();
  e.members[1].driver = "ata_piix";
  e.members[1].seq.read_mb_per_s = 60;  // of (100, 60): median 80, 25 % below it
  e.nas.cpu_top = CpuPeak{0, 95, 90, 2};
  std::optional<Cause> c = Apply(RaidNotScaling, e);
  ASSERT_TRUE(c);
  EXPECT_NE(c->summary.find("; likeliest: one NAS core: CPU 0 95 % busy (92 % irq and softirq)"), std::string::npos)
      << c->summary;
  const Lines tail(c->evidence.end() - 3, c->evidence.end());
  EXPECT_EQ(tail, (Lines{"likeliest: one NAS core: CPU 0 95 % busy (92 % irq and softirq)",
                         "also: a slow member: /dev/sdc reads 60 MB/s, 25 % below the members' median 80 MB/s",
                         "also: the SATA controller in IDE/legacy mode: /dev/sdc is on ata_piix (ahci in AHCI mode)"}));
}

TEST(RaidNotScaling, Raid1WithOneReaderExpectsOneMember) {
  Evidence e = testing::Raid0TwoMembers();
  e.raid->level = "raid1";
  e.volume_seq.read_mb_per_s = 95;  // one member's 100: it scales as RAID1 should
  EXPECT_FALSE(Apply(RaidNotScaling, e));
}

TEST(RaidNotScaling, QuietWithoutMembers) {
  Evidence e = testing::Raid0TwoMembers();
  e.members.clear();
  EXPECT_FALSE(Apply(RaidNotScaling, e));
}

TEST(ProtocolLimited, NamesSigningAndSmallReads) {
  Evidence e = HealthyGbE();
  e.protocol_seq.read_mb_per_s = 50;
  e.protocol_seq.write_mb_per_s = 100;
  e.negotiated = {
      {"dialect", "3.1.1"}, {"signing", "on"}, {"encryption", "off"}, {"rsize", "32 KiB"}, {"wsize", "1 MiB"}};
  std::optional<Cause> c = Apply(ProtocolLimited, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "protocol");
  EXPECT_EQ(c->summary,
            "the protocol is the cap: 50 MB/s read, 43 % of the 117 MB/s the disks and network both carry; "
            "negotiated at a cost: signing on, rsize 32 KiB (below 64 KiB)");
  EXPECT_EQ(c->evidence,
            (Lines{"protocol 1M sequential read: 50 MB/s", "NAS storage read: 400 MB/s", "network down: 117 MB/s",
                   "negotiated: signing on", "negotiated: rsize 32 KiB (below 64 KiB)", "protocol: SMB 3.1.1"}));
}

TEST(ProtocolLimited, NamesAnIscsiReadFarBelowItsWrite) {
  Evidence e = HealthyGbE();
  e.target_kind = "iscsi";
  e.protocol_label = "iSCSI";
  e.negotiated = {{"header_digest", "none"}};
  e.protocol_seq.read_mb_per_s = 54;
  e.protocol_seq.write_mb_per_s = 110;
  std::optional<Cause> c = Apply(ProtocolLimited, e);
  ASSERT_TRUE(c);
  EXPECT_NE(c->summary.find("iSCSI read 54 MB/s well below its write 110 MB/s"), std::string::npos) << c->summary;
}

TEST(ProtocolLimited, QuietWhenTheNasCpuIsSaturated) {
  Evidence e = HealthyGbE();
  e.protocol_seq.read_mb_per_s = 50;
  e.protocol_seq.write_mb_per_s = 40;
  ASSERT_TRUE(Apply(ProtocolLimited, e));
  e.nas.cpu_all->busy_pct = kCpuSaturatedPct;  // the CPU, not the protocol's settings
  EXPECT_FALSE(Apply(ProtocolLimited, e));
}

TEST(ProtocolLimited, QuietWhenTheDisksWereNotMeasured) {
  Evidence e = HealthyGbE();
  e.protocol_seq.read_mb_per_s = 50;
  e.protocol_seq.write_mb_per_s = 40;
  e.members.clear();
  e.volume_seq = LayerFigure{};
  EXPECT_FALSE(Apply(ProtocolLimited, e));
}

TEST(ClientLimited, FiresWhenTheClientsOwnCeilingIsTheCap) {
  Evidence e = HealthyGbE();
  e.client_ceiling.read_mb_per_s = 80;
  e.client_ceiling.write_mb_per_s = 70;
  e.client_cpu_us_per_io = 12.5;
  e.protocol_seq.read_mb_per_s = 78;
  e.protocol_seq.write_mb_per_s = 68;
  std::optional<Cause> c = Apply(ClientLimited, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "client");
  EXPECT_EQ(c->summary,
            "the client is the cap: its own ceiling (null:) is 80 MB/s read, and the protocol reached 78 MB/s");
  EXPECT_EQ(c->evidence, (Lines{"client ceiling, null: 1M sequential read: 80 MB/s", "client CPU per I/O: 12.5 us",
                                "protocol 1M sequential read: 78 MB/s"}));
}

TEST(ClientLimited, FiresWhenTheClientsCpuIsBusy) {
  Evidence e = HealthyGbE();
  e.client_cpu_busy_pct = 97;
  e.protocol_seq.read_mb_per_s = 90;
  e.protocol_seq.write_mb_per_s = 85;
  std::optional<Cause> c = Apply(ClientLimited, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "client CPU");
  // Issue 33: the figure is nasperf's own process, not the client machine's: it says so.
  EXPECT_EQ(c->summary,
            "the client's CPU is the cap: nasperf's own process kept 97 % of the client's CPUs busy while the "
            "protocol reached 90 MB/s of the 117 MB/s beneath it");
  EXPECT_EQ(c->evidence, (Lines{"client CPU: nasperf's own process 97 % of all CPUs during the target steps",
                                "protocol 1M sequential read: 90 MB/s", "lowest layer beneath (network): 117 MB/s"}));
  // From the client's telemetry (all processes), it says the CPUs' figure.
  e.client_cpu_busy_pct.reset();
  e.client.cpu_all = CpuPeak{-1, 96, 0, 0};
  c = Apply(ClientLimited, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->evidence[0], "client CPU: all CPUs 96 % busy during the target steps");
}

TEST(ClientLimited, QuietWhenTheBusyClientStillReachedTheLink) {
  Evidence e = HealthyGbE();
  e.client_cpu_busy_pct = 97;  // busy, but 110 of 117 MB/s: the link is the cap
  EXPECT_FALSE(Apply(ClientLimited, e));
}

TEST(Cached, NamesTheFiguresLeftOut) {
  Evidence e = HealthyGbE();
  e.protocol_seq.read_mb_per_s = 300;
  std::optional<Cause> c = Apply(Cached, e);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->layer, "protocol");
  EXPECT_EQ(c->summary,
            "1 figure was served from a cache, left out of the waterfall's cap (use a file larger than the NAS's RAM, "
            "or direct I/O)");
  EXPECT_EQ(c->evidence, (Lines{"protocol 1M sequential read (SMB 3.1.1): 300 MB/s: above the 1 GbE line rate (125 "
                                "MB/s): a cache served it; left out of the cap"}));
}

}  // namespace
}  // namespace nasperf::diagnose
