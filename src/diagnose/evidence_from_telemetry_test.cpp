// Tests of the telemetry-to-evidence helpers on recorded telemetry (testdata/).
#include "diagnose/evidence_from_telemetry.h"

#include <gtest/gtest.h>

#include "testing/test_support.h"

namespace nasperf {
namespace {

nlohmann::ordered_json Fixture(const std::string& name) {
  return nlohmann::ordered_json::parse(nasperf::testing::ReadWholeFile(nasperf::testing::TestDataFile(__FILE__, name)));
}

TEST(EvidenceFromTelemetry, IrqImbalanceAtTheBusiestSecond) {
  HostEvidence h;
  AddTelemetryEvidence({Fixture("irq_imbalance_telemetry.json")}, &h);
  // The second sample: CPU 0 96 % (95 % softirq), the others 3, 2 and 1 %.
  ASSERT_TRUE(h.cpu_all && h.cpu_top);
  EXPECT_DOUBLE_EQ(h.cpu_all->busy_pct, (96.0 + 3 + 2 + 1) / 4);
  EXPECT_EQ(h.cpu_all->cpu, -1);
  EXPECT_EQ(h.cpu_top->cpu, 0);
  EXPECT_EQ(h.cpu_top->busy_pct, 96);
  EXPECT_EQ(h.cpu_top->softirq_pct, 95);
  ASSERT_EQ(h.cpus.size(), 4u);
  EXPECT_EQ(h.cpus[3].busy_pct, 1);
  ASSERT_EQ(h.irqs.size(), 3u);
  EXPECT_EQ(h.irqs[0].irq, "24");  // most interrupts first
  EXPECT_EQ(h.irqs[0].kind, "nic");
  EXPECT_EQ(h.irqs[0].device, "eth0");
  EXPECT_EQ(h.irqs[0].count, 24000u);
  EXPECT_EQ(h.irqs[0].top_cpu, 0);
  EXPECT_EQ(h.irqs[0].top_share, 1.0);
  EXPECT_EQ(h.irqs[2].irq, "19");
  EXPECT_FALSE(h.irqs[2].device.has_value());
  EXPECT_EQ(h.irqs[2].count, 1200u);
  EXPECT_EQ(h.irqs[2].top_share, 0.25);
}

// The telemetry sampler writes each line's smp_affinity every second: the last one read wins.
TEST(EvidenceFromTelemetry, TheLastSampledAffinityIsKept) {
  nlohmann::ordered_json telemetry = Fixture("irq_imbalance_telemetry.json");
  auto& samples = telemetry["samples"];
  ASSERT_GE(samples.size(), 2u);
  samples[0]["interrupts"][0]["smp_affinity"] = "f";
  samples[samples.size() - 1]["interrupts"][0]["smp_affinity"] = "1";
  HostEvidence h;
  AddTelemetryEvidence({telemetry}, &h);
  ASSERT_FALSE(h.irqs.empty());
  EXPECT_EQ(h.irqs[0].irq, "24");
  EXPECT_EQ(h.irqs[0].smp_affinity, "1");
}

// The lab's NAS CPU limit: the agent's cgroup, 0.02 CPUs, throttled most in its second sample.
TEST(EvidenceFromTelemetry, TheCgroupsMostThrottledSecond) {
  const nlohmann::ordered_json telemetry = nlohmann::ordered_json::parse(R"({"interval_s": 1, "samples": [
    {"cpus": [{"cpu": 0, "busy_pct": 100}], "cgroup": {"path": "/nasperf-lab", "quota_cpus": 0.02,
      "usage_cpus": 0.015, "throttled_pct": 20.0, "periods": 100, "throttled_periods": 20}},
    {"cpus": [{"cpu": 0, "busy_pct": 40}], "cgroup": {"path": "/nasperf-lab", "quota_cpus": 0.02,
      "usage_cpus": 0.0199, "throttled_pct": 79.0, "periods": 996, "throttled_periods": 787}},
    {"cpus": [{"cpu": 0, "busy_pct": 50}], "cgroup": {"path": "/nasperf-lab", "quota_cpus": 0.02,
      "usage_cpus": 0.0195, "throttled_pct": 79.0, "periods": 990, "throttled_periods": 782}},
    {"cpus": [{"cpu": 0, "busy_pct": 10}], "cgroup": null},
    {"cpus": [{"cpu": 0, "busy_pct": 10}], "cgroup": "odd"}]})");
  HostEvidence h;
  AddTelemetryEvidence({telemetry}, &h);
  EXPECT_EQ(h.cgroup_path, "/nasperf-lab");
  EXPECT_EQ(h.cgroup_quota_cpus, 0.02);
  EXPECT_EQ(h.cgroup_usage_cpus, 0.0199);  // 79 % twice: the higher use
  EXPECT_EQ(h.cgroup_throttled_pct, 79.0);
  EXPECT_EQ(h.cpu_all->busy_pct, 100);  // the machine's busiest second is another one

  // An unlimited cgroup: no quota, its use at its busiest.
  const nlohmann::ordered_json unlimited = nlohmann::ordered_json::parse(R"({"samples": [
    {"cgroup": {"path": "/docker/abc", "quota_cpus": null, "usage_cpus": 0.5, "throttled_pct": 0.0}},
    {"cgroup": {"path": "/docker/abc", "quota_cpus": null, "usage_cpus": 1.5, "throttled_pct": 0.0}}]})");
  HostEvidence u;
  AddTelemetryEvidence({unlimited}, &u);
  EXPECT_EQ(u.cgroup_path, "/docker/abc");
  EXPECT_FALSE(u.cgroup_quota_cpus);
  EXPECT_EQ(u.cgroup_usage_cpus, 1.5);

  // Telemetry without the key (the root cgroup, or stored before it existed): nothing set.
  HostEvidence none;
  AddTelemetryEvidence({Fixture("irq_imbalance_telemetry.json")}, &none);
  EXPECT_FALSE(none.cgroup_path || none.cgroup_quota_cpus || none.cgroup_usage_cpus || none.cgroup_throttled_pct);
}

TEST(EvidenceFromTelemetry, StepsAddUpAndTheBusiestOfAllWins) {
  HostEvidence h;
  AddTelemetryEvidence({Fixture("balanced_telemetry.json"), Fixture("irq_imbalance_telemetry.json")}, &h);
  EXPECT_EQ(h.cpu_all->busy_pct, 42);  // the balanced step's second sample: 42 % on every CPU
  ASSERT_FALSE(h.irqs.empty());
  EXPECT_EQ(h.irqs[0].irq, "24");
  EXPECT_EQ(h.irqs[0].count, 24000u + 16000u);             // 8000/s for 3 s, then 4 x 2000/s for 2 s
  EXPECT_DOUBLE_EQ(h.irqs[0].top_share, 28000.0 / 40000);  // CPU 0: 24000 + 4000 of 40000
}

TEST(EvidenceFromTelemetry, WrongShapesAreSkipped) {
  HostEvidence h;
  h.cpu_all = CpuPeak{-1, 1, 0, 0};
  nlohmann::ordered_json odd = nlohmann::ordered_json::parse(R"({"samples": [
      "x", {"cpus": "no"}, {"cpus": [{"cpu": "0", "busy_pct": 50}, {"busy_pct": 50}]},
      {"interrupts": [{"irq": 5, "per_cpu_per_s": [1]}, {"irq": "7", "per_cpu_per_s": "many"}]}]})");
  AddTelemetryEvidence({nlohmann::ordered_json::array(), odd, nlohmann::ordered_json("text")}, &h);
  EXPECT_EQ(h.cpu_all->busy_pct, 1);  // left as it was
  EXPECT_TRUE(h.irqs.empty());
}

TEST(EvidenceFromTelemetry, AffinitiesAreSetAndKept) {
  HostEvidence h;
  AddTelemetryEvidence({Fixture("irq_imbalance_telemetry.json")}, &h);
  SetIrqAffinities({{"24", "1"}, {"99", "f"}}, &h);
  EXPECT_EQ(h.irqs[0].smp_affinity, "1");
  EXPECT_FALSE(h.irqs[1].smp_affinity.has_value());
  AddTelemetryEvidence({Fixture("irq_imbalance_telemetry.json")}, &h);  // read again: the affinity stays
  EXPECT_EQ(h.irqs[0].smp_affinity, "1");
}

}  // namespace
}  // namespace nasperf
