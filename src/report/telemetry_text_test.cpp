// Tests of SummariseTelemetry on synthetic sample series: each diagnosis appears exactly when it should.
#include <gtest/gtest.h>

#include <algorithm>

#include "report/telemetry_text.h"

namespace nasperf::sysinfo::telemetry {
namespace {

using Json = nlohmann::ordered_json;

struct Shape {
  double cpu0_busy = 30, cpu0_softirq = 5, cpu1_busy = 30;
  std::vector<double> nic_per_cpu = {4000, 4000};  // interrupts/s of NIC eth0 on CPU0, CPU1
  double sda_util = 10, sda_read_mb_per_s = 20;
  double cache_start_bytes = 1e9, cache_growth_per_sample_bytes = 0;
  bool sensors = false;
};

Json Series(const Shape& s, int n = 10) {
  Json samples = Json::array();
  for (int i = 0; i < n; ++i) {
    // A little noise around the medians: one outlier sample must not change the verdict.
    double wobble = i == 3 ? 40 : (i % 2 ? 1 : -1);
    auto clamp = [](double x) { return std::clamp(x, 0.0, 100.0); };
    Json sample = {{"t_s", i + 1}};
    sample["cpus"] = Json::array(
        {{{"cpu", 0}, {"busy_pct", clamp(s.cpu0_busy + wobble)}, {"softirq_pct", s.cpu0_softirq}, {"irq_pct", 1}},
         {{"cpu", 1}, {"busy_pct", clamp(s.cpu1_busy - wobble)}, {"softirq_pct", 1}, {"irq_pct", 0}}});
    sample["interrupt_cpus"] = {0, 1};
    sample["interrupts"] = Json::array({{{"irq", "27"}, {"name", "eth0-TxRx-0"}, {"kind", "nic"}, {"device", "eth0"},
                                         {"per_cpu_per_s", s.nic_per_cpu}},
                                        {{"irq", "24"}, {"name", "ahci[0000:00:1f.2]"}, {"kind", "disk"},
                                         {"device", "ahci"}, {"per_cpu_per_s", {300, 300}}}});
    sample["page_cache_bytes"] = s.cache_start_bytes + i * s.cache_growth_per_sample_bytes;
    sample["disks"] = Json::array(
        {{{"disk", "sda"}, {"util_pct", clamp(s.sda_util + wobble)}, {"read_mb_per_s", s.sda_read_mb_per_s},
          {"write_mb_per_s", 0}},
         {{"disk", "sdb"}, {"util_pct", 0}, {"read_mb_per_s", 0}, {"write_mb_per_s", 0}}});
    sample["temperatures"] = Json::array();
    sample["fans"] = Json::array();
    if (s.sensors) {
      sample["temperatures"] = Json::array({{{"chip", "coretemp-isa-0000"}, {"label", "Package id 0"},
                                             {"celsius", 60 + i}},
                                            {{"chip", "acpitz-acpi-0"}, {"label", "temp1"}, {"celsius", 40}}});
      sample["fans"] = Json::array({{{"chip", "nct6775-isa-0290"}, {"label", "fan1"}, {"rpm", 1200 + 20 * i}}});
    }
    samples.push_back(sample);
  }
  return {{"interval_s", 1}, {"samples", samples}, {"sensors", s.sensors ? "coretemp-isa-0000" : "no sensors"}};
}

int Count(const std::vector<std::string>& lines, const std::string& needle) {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(),
                                        [&](const std::string& l) { return l.find(needle) != std::string::npos; }));
}

std::string Dump(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST(TelemetrySummary, BalancedInterruptsAndIdleDiskGiveNoDiagnosis) {
  std::vector<std::string> lines = SummariseTelemetry(Series(Shape{}));
  EXPECT_EQ(Count(lines, "CPU busy: CPU0 30 %, CPU1 30 % (median)"), 1) << Dump(lines);
  EXPECT_EQ(Count(lines, "interrupts not balanced"), 0) << Dump(lines);
  EXPECT_EQ(Count(lines, "interrupts: NIC eth0 8000/s (median) — CPU0 50 %, CPU1 50 %"), 1) << Dump(lines);
  EXPECT_EQ(Count(lines, "disk sda 10 % utilised, 20.0 MB/s read, 0.0 MB/s write (median)"), 1) << Dump(lines);
  EXPECT_EQ(Count(lines, "the disk is the bottleneck"), 0) << Dump(lines);
  EXPECT_EQ(Count(lines, "disk sdb"), 0) << Dump(lines);  // idle: no line
  EXPECT_EQ(Count(lines, "page cache"), 0) << Dump(lines);
  EXPECT_EQ(Count(lines, "no sensors"), 1) << Dump(lines);
}

TEST(TelemetrySummary, SaturatedCpuWithAllNicInterruptsIsUnbalanced) {
  Shape s;
  s.cpu0_busy = 98;
  s.cpu0_softirq = 71;
  s.cpu1_busy = 4;
  s.nic_per_cpu = {12000, 0};
  std::vector<std::string> lines = SummariseTelemetry(Series(s));
  EXPECT_EQ(Count(lines, "CPU0 98 % busy (71 % softirq) while CPU1 idle (4 %): interrupts not balanced — "
                         "NIC eth0's IRQs all on CPU0"),
            1)
      << Dump(lines);
  // The disk controller's interrupts are spread: not blamed.
  EXPECT_EQ(Count(lines, "ahci's IRQs"), 0) << Dump(lines);
}

TEST(TelemetrySummary, ConcentratedInterruptsOnAnUnloadedCpuAreNotAProblem) {
  Shape s;
  s.nic_per_cpu = {12000, 0};  // all on CPU0, but CPU0 has time to spare
  std::vector<std::string> lines = SummariseTelemetry(Series(s));
  EXPECT_EQ(Count(lines, "interrupts not balanced"), 0) << Dump(lines);
  EXPECT_EQ(Count(lines, "interrupts: NIC eth0 12000/s (median) — CPU0 100 %"), 1) << Dump(lines);
}

TEST(TelemetrySummary, BothCpusSaturatedIsNotAnInterruptImbalance) {
  Shape s;
  s.cpu0_busy = 98;
  s.cpu1_busy = 95;
  s.nic_per_cpu = {12000, 0};
  EXPECT_EQ(Count(SummariseTelemetry(Series(s)), "interrupts not balanced"), 0);
}

TEST(TelemetrySummary, SaturatedDiskIsTheBottleneck) {
  Shape s;
  s.sda_util = 97;
  s.sda_read_mb_per_s = 110.6;
  std::vector<std::string> lines = SummariseTelemetry(Series(s));
  EXPECT_EQ(Count(lines, "disk sda 97 % utilised, 110.6 MB/s read, 0.0 MB/s write (median): the disk is the bottleneck"),
            1)
      << Dump(lines);
  EXPECT_EQ(Count(lines, "disk sdb"), 0) << Dump(lines);
}

TEST(TelemetrySummary, PageCacheGrowth) {
  Shape s;
  s.cache_growth_per_sample_bytes = 1.9 * 1024 * 1024 * 1024 / 9;  // 1.9 GiB over ten samples
  std::vector<std::string> lines = SummariseTelemetry(Series(s));
  EXPECT_EQ(Count(lines, "page cache grew 1.9 GiB during the run"), 1) << Dump(lines);
  s.cache_growth_per_sample_bytes = -200.0 * 1024 * 1024 / 9;
  EXPECT_EQ(Count(SummariseTelemetry(Series(s)), "page cache shrank 200 MiB during the run"), 1);
  s.cache_growth_per_sample_bytes = 1024 * 1024;  // 9 MiB: noise
  EXPECT_EQ(Count(SummariseTelemetry(Series(s)), "page cache"), 0);
}

TEST(TelemetrySummary, SensorsOrNoSensors) {
  Shape s;
  s.sensors = true;
  std::vector<std::string> lines = SummariseTelemetry(Series(s));
  EXPECT_EQ(Count(lines, "temperatures: max 69 °C (coretemp Package id 0); fans 1200-1380 rpm"), 1) << Dump(lines);
  EXPECT_EQ(Count(lines, "no sensors"), 0) << Dump(lines);
}

TEST(TelemetrySummary, NullEmptyAndMalformedTelemetry) {
  EXPECT_TRUE(SummariseTelemetry(nlohmann::json()).empty());
  EXPECT_EQ(SummariseTelemetry(nlohmann::json{{"interval_s", 1}, {"samples", nlohmann::json::array()}}),
            (std::vector<std::string>{"no telemetry samples (the run ended within the first second)"}));
  // Wrong types anywhere are skipped, never thrown.
  nlohmann::json junk = {{"samples", {{{"cpus", {{{"cpu", "x"}}, 5}}, {"interrupts", {1, {{"per_cpu_per_s", "no"}}}},
                                       {"disks", {{{"disk", 3}}}}, {"temperatures", {{{"celsius", "hot"}}}}}}}};
  EXPECT_NO_THROW(SummariseTelemetry(junk));
}

}  // namespace
}  // namespace nasperf::sysinfo::telemetry

namespace nasperf::sysinfo::telemetry {
namespace {

TEST(TelemetrySummary, TextBlockForResultsShow) {
  EXPECT_EQ(TelemetryText(nlohmann::json()), "");
  nlohmann::ordered_json t = Series(Shape{}, 12);
  std::string text = TelemetryText(t);
  EXPECT_EQ(text.rfind("Telemetry (NAS, 1 Hz, 12 samples)\n  CPU busy: CPU0 30 %, CPU1 30 % (median)\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("\n  no sensors\n"), std::string::npos) << text;
  // Without samples (a summary streamed alone), the stored lines are shown.
  nlohmann::json stored = {{"interval_s", 1}, {"samples", nlohmann::json::array()}, {"summary", {"stored line"}}};
  EXPECT_EQ(TelemetryText(stored), "Telemetry (NAS, 1 Hz, 0 samples)\n  stored line\n");
}

}  // namespace
}  // namespace nasperf::sysinfo::telemetry
