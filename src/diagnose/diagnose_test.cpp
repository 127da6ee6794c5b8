// Tests of Diagnose as a whole on the seed cases: the cap, the causes named (and only those),
// what was not measured, and the summary line.
#include "diagnose/diagnose.h"
#include "model/diagnosis_json.h"

#include <gtest/gtest.h>

#include "diagnose/evidence_from_telemetry.h"
#include "diagnose/not_measured.h"
#include "diagnose/test_evidence.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

std::vector<std::string> Rules(const Diagnosis& d) {
  std::vector<std::string> out;
  for (const Cause& c : d.causes) out.push_back(c.rule);
  return out;
}

using Names = std::vector<std::string>;

TEST(Diagnose, HealthyGbESaysTheLinkIsTheCap) {
  Diagnosis d = Diagnose(diagnose::testing::HealthyGbE());
  EXPECT_EQ(d.cap_layer, "network");
  EXPECT_TRUE(d.causes.empty()) << d.causes[0].rule;
  EXPECT_EQ(d.line_rate_mbps, 1000);
  EXPECT_EQ(d.end_to_end_mb_per_s, 110);
  EXPECT_EQ(d.summary,
            "the link is the cap: 117 MB/s, 94 % of 1 GbE (99 % of the TCP payload maximum for MTU 1500); the "
            "protocol reached 110 MB/s and the layers beneath keep up");
  EXPECT_EQ(d.evidence, diagnose::testing::HealthyGbE());
  EXPECT_TRUE(d.not_measured.empty()) << d.not_measured[0];
}

// Issue 33: the link at 94 % of 1 GbE and the protocol at 81 % of it is no "the link is the
// cap": the summary names an unexplained shortfall and what could and could not explain it.
TEST(Diagnose, AProtocolShortOfAHealthyLinkIsAnUnexplainedShortfallNotTheLinksCap) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.protocol_seq.read_mb_per_s = 95;
  e.protocol_seq.write_mb_per_s = 90;
  e.negotiated = {{"dialect", "3.1.1"}, {"signing", "required"}};
  e.nas.cpu_all.reset();
  Diagnosis d = Diagnose(e);
  EXPECT_TRUE(d.causes.empty()) << d.causes[0].rule;
  EXPECT_EQ(d.summary,
            "an unexplained shortfall of 19 %: the protocol reached 95 MB/s, 81 % of the 117 MB/s the network "
            "carries (94 % of 1 GbE); not measured: the NAS's CPU, the cost of SMB signing (required), the "
            "protocol's per-request latency");
  ASSERT_TRUE(d.unexplained_shortfall_pct);
  EXPECT_NEAR(*d.unexplained_shortfall_pct, 18.8, 0.1) << "95 of 117 MB/s";
  // With the NAS's CPUs sampled and signing off, those are said as measured.
  e.nas.cpu_all = CpuPeak{-1, 40, 5, 1};
  e.negotiated = {{"signing", "off"}};
  d = Diagnose(e);
  EXPECT_EQ(d.summary,
            "an unexplained shortfall of 19 %: the protocol reached 95 MB/s, 81 % of the 117 MB/s the network "
            "carries (94 % of 1 GbE); measured: the NAS's CPUs 40 % busy at most (not saturated), SMB signing off; "
            "not measured: the protocol's per-request latency");
}

// At 90 % of the network's figure and above, the link is the cap.
TEST(Diagnose, AProtocolAtNinetyPercentOfTheLinkIsTheLinksCap) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.protocol_seq.read_mb_per_s = 106;  // 90.6 % of 117
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(d.summary.rfind("the link is the cap: 117 MB/s", 0), 0u) << d.summary;
  EXPECT_FALSE(d.unexplained_shortfall_pct);
}

// A veth reports 10000 Mbit/s whatever shapes it: the stated line rate is used instead,
// and every sentence that names it says it was stated.
TEST(Diagnose, AStatedLineRateReplacesTheNicsAndSaysSo) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.client.nic->speed_mbps = 10000;
  e.nas.nic->speed_mbps = 10000;
  Diagnosis unstated = Diagnose(e);
  EXPECT_EQ(unstated.line_rate_mbps, 10000);
  EXPECT_EQ(unstated.line_rate_source, "nic");
  e.stated_line_rate_mbps = 1000;
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(d.line_rate_mbps, 1000);
  EXPECT_EQ(d.line_rate_source, "stated");
  EXPECT_TRUE(d.causes.empty()) << d.causes[0].rule;
  EXPECT_NE(d.summary.find("94 % of 1 GbE (stated)"), std::string::npos) << d.summary;
  Result<Diagnosis> back = DiagnosisFromJson(nlohmann::json::parse(DiagnosisToJson(d).dump()));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value(), d);
}

TEST(Diagnose, PciNicNamesTheLinkPathNotTheDisks) {
  Diagnosis d = Diagnose(diagnose::testing::PciNic());
  EXPECT_EQ(Rules(d), (Names{"link-path-capped"}));
  EXPECT_EQ(d.cap_layer, "network");
  EXPECT_NE(d.summary.find("the link path caps at 64 MB/s, 51 % of 1 GbE; not the disks"), std::string::npos)
      << d.summary;
}

TEST(Diagnose, NasCpuLimitNamesTheNasCpu) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.nas.cpu_all = CpuPeak{-1, 96, 30, 2};
  e.nas.cpu_top = CpuPeak{1, 98, 30, 2};
  e.nas.cpus = {CpuPeak{0, 94, 30, 2}, CpuPeak{1, 98, 30, 2}};
  e.net.down_1_mb_per_s = 60;
  e.net.down_4_mb_per_s = 70;
  e.net.up_1_mb_per_s = 55;
  e.net.up_4_mb_per_s = 65;
  e.protocol_seq.read_mb_per_s = 50;
  e.protocol_seq.write_mb_per_s = 45;
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(Rules(d), (Names{"nas-cpu-saturated"}));
}

TEST(Diagnose, MtuOnOneSideNamesTheMismatch) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.nas.nic->mtu = 9000;
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(Rules(d), (Names{"mtu-mismatch"}));
  EXPECT_NEAR(*d.payload_max_mb_per_s, 117.685, 0.001);  // the path's MTU is the smaller
}

TEST(Diagnose, Raid0ReportsExpectedAgainstMeasured) {
  Diagnosis d = Diagnose(diagnose::testing::Raid0TwoMembers());
  EXPECT_EQ(Rules(d), (Names{"raid-not-scaling"}));
  EXPECT_NE(d.causes[0].summary.find("reads 120 MB/s, 0.60 of the 200 MB/s expected"), std::string::npos);
}

TEST(Diagnose, IrqImbalanceFromRecordedTelemetry) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.nas.cores_logical = 4;
  // The core held the protocol short of the 117 MB/s beneath it (not so short that the
  // protocol's own settings are blamed).
  e.protocol_seq.read_mb_per_s = 90;
  e.protocol_seq.write_mb_per_s = 85;
  const std::vector<nlohmann::ordered_json> telemetry = {nlohmann::ordered_json::parse(
      nasperf::testing::ReadWholeFile(nasperf::testing::TestDataFile(__FILE__, "irq_imbalance_telemetry.json")))};
  AddTelemetryEvidence(telemetry, &e.nas);
  SetIrqAffinities({{"24", "1"}, {"25", "1"}, {"19", "f"}}, &e.nas);
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(Rules(d), (Names{"irq-imbalance"}));
  EXPECT_EQ(
      d.causes[0].evidence,
      (std::vector<std::string>{"NAS CPU 0: 96 % busy, softirq 95 %, irq 1 %",
                                "IRQ 24 (eth0-rx-0, eth0): 100 % of 24000 interrupts on CPU 0, smp_affinity 1",
                                "IRQ 25 (eth0-tx-0, eth0): 100 % of 6000 interrupts on CPU 0, smp_affinity 1",
                                "IRQ 19 (ahci[0000:00:1f.2]): 25 % of 1200 interrupts on CPU 0, smp_affinity f",
                                "protocol 1M sequential write: 85 MB/s, 73 % of the lower of network up (116 MB/s) "
                                "and NAS storage write (380 MB/s)"}));
}

TEST(Diagnose, WithoutAnAgentSaysWhatWasNotMeasured) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.agent = false;
  e.nas = HostEvidence{};
  e.members.clear();
  e.volume_seq = LayerFigure{};
  e.net = NetEvidence{};
  e.nas.nic.reset();
  Diagnosis d = Diagnose(e);
  EXPECT_TRUE(d.causes.empty()) << d.causes[0].rule;
  EXPECT_EQ(d.cap_layer, "");
  ASSERT_FALSE(d.not_measured.empty());
  EXPECT_EQ(d.not_measured[0], diagnose::kNoAgentLine);
  EXPECT_EQ(d.not_measured[0], "no agent: NAS disks, CPU and interrupts not measured");
  EXPECT_EQ(d.summary,
            "the protocol reached 110 MB/s; the layers beneath it were not all measured, so the cap cannot be told");
}

TEST(Diagnose, OrchestratorsGapsComeFirst) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.not_measured = {"NAS sensors: none"};
  e.net.retransmits.reset();
  e.net.retransmit_pct.reset();
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(d.not_measured, (std::vector<std::string>{"NAS sensors: none",
                                                      "TCP retransmits not counted: link-path-capped not checked"}));
}

// Issue 33: "no end-to-end figure was measured" was said when both were measured and set
// aside as cached; the summary names them and why.
TEST(Diagnose, EndToEndFiguresSetAsideAsCachedAreNamedNotCalledUnmeasured) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.protocol_seq.read_mb_per_s = 300;
  e.protocol_seq.write_mb_per_s = 280;
  Diagnosis d = Diagnose(e);
  EXPECT_FALSE(d.end_to_end_mb_per_s);
  EXPECT_EQ(d.summary,
            "every end-to-end figure measured was set aside as cached, so the cap cannot be told: 1M sequential "
            "read (SMB 3.1.1): 300 MB/s (above the 1 GbE line rate (125 MB/s): a cache served it; left out of the "
            "cap); 1M sequential write (SMB 3.1.1): 280 MB/s (above the 1 GbE line rate (125 MB/s): a cache served "
            "it; left out of the cap)");
  e.protocol_seq = {};
  EXPECT_EQ(Diagnose(e).summary, "no end-to-end figure was measured: the cap cannot be told");
}

TEST(Diagnose, CachedFigureIsNamedButNotTheSummary) {
  Evidence e = diagnose::testing::HealthyGbE();
  e.protocol_seq.read_mb_per_s = 300;
  Diagnosis d = Diagnose(e);
  EXPECT_EQ(Rules(d), (Names{"cached"}));
  EXPECT_EQ(d.end_to_end_mb_per_s, 100);
  EXPECT_EQ(d.cap_layer, "network");
  // The uncached write reached 100 of the 116 MB/s up (86 %): short of the link, not its cap.
  EXPECT_EQ(d.summary.rfind("an unexplained shortfall of 14 %: the protocol reached 100 MB/s, 86 % of the 116 MB/s", 0),
            0u)
      << d.summary;
}

}  // namespace
}  // namespace nasperf
