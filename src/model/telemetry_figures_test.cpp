// MeasureTelemetry: the typed figures of a telemetry series (medians, the interrupt
// imbalance, active disks, page cache, sensors), before any sentence is written.
#include "model/telemetry_figures.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using Json = nlohmann::json;

// Three samples: CPU0 saturated by eth0's interrupts while CPU1 idles, sda busy, the page
// cache growing by 300 MiB, one temperature and one fan.
Json Series() {
  Json samples = Json::array();
  for (int i = 0; i < 3; ++i) {
    Json s = {{"t_s", i + 1}};
    s["cpus"] = {{{"cpu", 0}, {"busy_pct", 95 + i}, {"softirq_pct", 40}, {"irq_pct", 12}},
                 {{"cpu", 1}, {"busy_pct", 5}, {"softirq_pct", 0}, {"irq_pct", 0}}};
    s["interrupt_cpus"] = {0, 1};
    s["interrupts"] = {
        {{"irq", "27"}, {"name", "eth0-TxRx-0"}, {"kind", "nic"}, {"device", "eth0"}, {"per_cpu_per_s", {9000, 0}}},
        {{"irq", "24"}, {"name", "ahci"}, {"kind", "disk"}, {"per_cpu_per_s", {0, 0}}}};
    s["page_cache_bytes"] = 1e9 + i * 150.0 * 1024 * 1024;
    s["disks"] = {{{"disk", "sda"}, {"util_pct", 97}, {"read_mb_per_s", 110 + i}, {"write_mb_per_s", 0}},
                  {{"disk", "sdb"}, {"util_pct", 1}, {"read_mb_per_s", 0}, {"write_mb_per_s", 0}}};
    s["temperatures"] = {{{"chip", "coretemp-isa-0000"}, {"label", "Core 0"}, {"celsius", 50 + i}}};
    s["fans"] = {{{"chip", "nct6775-isa-0290"}, {"label", "fan1"}, {"rpm", 1000 + 100 * i}}};
    samples.push_back(s);
  }
  return {{"interval_s", 1}, {"samples", samples}};
}

TEST(TelemetryFigures, MediansDiagnosesAndSensors) {
  TelemetryFigures f = MeasureTelemetry(Series());
  EXPECT_EQ(f.samples, 3u);
  ASSERT_EQ(f.cpus.size(), 2u);
  EXPECT_DOUBLE_EQ(f.cpus[0].busy_pct, 96);
  EXPECT_DOUBLE_EQ(f.cpus[0].softirq_pct, 40);
  ASSERT_EQ(f.irq_devices.size(), 1u);  // the silent disk controller is left out
  EXPECT_EQ(f.irq_devices[0].device, "eth0");
  EXPECT_DOUBLE_EQ(f.irq_devices[0].median_per_s, 9000);
  EXPECT_DOUBLE_EQ(f.irq_devices[0].share_on(0), 1.0);
  ASSERT_TRUE(f.imbalance);
  EXPECT_EQ(f.imbalance->hot.cpu, 0);
  EXPECT_EQ(f.imbalance->cold.cpu, 1);
  ASSERT_EQ(f.imbalance->culprits.size(), 1u);
  EXPECT_EQ(f.imbalance->culprits[0].device, "eth0");
  ASSERT_EQ(f.active_disks.size(), 1u);  // sdb is idle
  EXPECT_EQ(f.active_disks[0].disk, "sda");
  EXPECT_DOUBLE_EQ(f.active_disks[0].read_mb_per_s, 111);
  EXPECT_TRUE(f.active_disks[0].saturated);
  ASSERT_TRUE(f.page_cache_change_bytes);
  EXPECT_DOUBLE_EQ(f.page_cache_change_bytes->second - f.page_cache_change_bytes->first, 300.0 * 1024 * 1024);
  ASSERT_TRUE(f.max_celsius);
  EXPECT_DOUBLE_EQ(*f.max_celsius, 52);
  EXPECT_EQ(f.hottest, "coretemp Core 0");
  EXPECT_DOUBLE_EQ(*f.fan_min_rpm, 1000);
  EXPECT_DOUBLE_EQ(*f.fan_max_rpm, 1200);
}

TEST(TelemetryFigures, BalancedQuietAndDamagedSeriesGiveNoDiagnosis) {
  Json t = Series();
  for (Json& s : t["samples"]) s["cpus"][1]["busy_pct"] = 60;  // CPU1 is not idle: no imbalance
  t["samples"][1]["disks"] = "damaged";
  TelemetryFigures f = MeasureTelemetry(t);
  EXPECT_FALSE(f.imbalance);
  EXPECT_EQ(f.active_disks.size(), 1u);
  EXPECT_EQ(MeasureTelemetry(Json()).samples, 0u);
  EXPECT_EQ(MeasureTelemetry(Json::parse(R"({"samples": "x"})")).samples, 0u);
  TelemetryFigures none = MeasureTelemetry(Json::parse(R"({"samples": [{"t_s": 1}]})"));
  EXPECT_EQ(none.samples, 1u);
  EXPECT_TRUE(none.cpus.empty());
  EXPECT_FALSE(none.max_celsius);
  EXPECT_FALSE(none.fan_max_rpm);
  EXPECT_FALSE(none.page_cache_change_bytes);
}

}  // namespace
}  // namespace nasperf
