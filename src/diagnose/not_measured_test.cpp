// Tests of what diagnose says it could not measure, with an agent and gaps in its evidence.
#include "diagnose/not_measured.h"

#include <gtest/gtest.h>

#include "diagnose/test_evidence.h"

namespace nasperf::diagnose {
namespace {

TEST(NotMeasured, NothingMissingOnTheHealthyCase) { EXPECT_TRUE(NotMeasured(testing::HealthyGbE()).empty()); }

TEST(NotMeasured, EachGapWithTheRulesItLeavesUnchecked) {
  Evidence e = testing::HealthyGbE();
  e.nas.measured = false;
  e.nas.cpu_all.reset();
  e.members.clear();
  e.volume_seq = LayerFigure{};
  e.net = NetEvidence{};
  e.nas.nic.reset();
  e.client.nic_rated_mbps.reset();
  EXPECT_EQ(NotMeasured(e),
            (std::vector<std::string>{
                "NAS CPU and interrupts not measured (no telemetry from the agent): nas-cpu-saturated, irq-imbalance "
                "and link-path-capped not checked",
                "NAS disks: no member read (the agent needs --allow-volume-members or --allow-device): "
                "raid-not-scaling not checked",
                "NAS volume not measured (run --on): disk-limited not checked",
                "network not measured: link-path-capped, disk-limited and protocol-limited not checked",
                "the NAS's NIC not read: the line rate is the other end's alone; mtu-mismatch not checked",
                "client NIC's rated speed unknown: link-below-rating checks its duplex only"}));
}

TEST(NotMeasured, NoNicAtAllMeansNoLineRate) {
  Evidence e = testing::HealthyGbE();
  e.client.nic.reset();
  e.nas.nic.reset();
  const std::vector<std::string> lines = NotMeasured(e);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "line rate unknown: neither end's NIC speed was read; no % of line rate");
}

// nasperf's own rusage is no sample of the client machine: link-path-capped, which needs the
// client idle, says it was not checked (the lab's pci-gbe case went quiet without a word).
TEST(NotMeasured, TheClientsOwnProcessAloneLeavesLinkPathCappedUnchecked) {
  Evidence e = testing::HealthyGbE();
  e.client.cpu_all.reset();
  e.client.cpu_top.reset();
  e.client_cpu_busy_pct = 12;
  EXPECT_EQ(NotMeasured(e), (std::vector<std::string>{"client CPUs not sampled (only nasperf's own process measured): "
                                                      "link-path-capped not checked"}));
  e.client_cpu_busy_pct.reset();
  EXPECT_EQ(NotMeasured(e),
            (std::vector<std::string>{"client CPU not measured: client-limited and link-path-capped not checked"}));
}

}  // namespace
}  // namespace nasperf::diagnose
