// `results show` of a run measured on a NAS with telemetry: the human block and the JSON document.
#include <string>

#include "cli_harness.h"
#include "nasperf/result.h"
#include "store/results_store.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Three seconds of an agent's telemetry: CPU0 saturated by eth0's softirqs, CPU1 idle.
ordered_json UnbalancedTelemetry() {
  ordered_json samples = ordered_json::array();
  for (int i = 1; i <= 3; ++i)
    samples.push_back(
        {{"t_s", i},
         {"cpus", {{{"cpu", 0}, {"busy_pct", 98}, {"softirq_pct", 71}, {"irq_pct", 2}},
                   {{"cpu", 1}, {"busy_pct", 4}, {"softirq_pct", 0}, {"irq_pct", 0}}}},
         {"interrupt_cpus", {0, 1}},
         {"interrupts", {{{"irq", "27"}, {"name", "eth0"}, {"kind", "nic"}, {"device", "eth0"},
                          {"per_cpu_per_s", {9000, 0}}}}},
         {"page_cache_bytes", 1e9 + i * 1e9},
         {"disks", {{{"disk", "sda"}, {"util_pct", 97}, {"read_mb_per_s", 110.6}, {"write_mb_per_s", 0}}}},
         {"temperatures", ordered_json::array()},
         {"fans", ordered_json::array()}});
  return {{"interval_s", 1}, {"samples", samples}, {"summary", {"as stored"}}, {"sensors", "no sensors"}};
}

TEST(TelemetryResultsE2eTest, ShowPrintsWhereItWasMeasuredAndTheTelemetry) {
  TempDir dir;
  std::string db = dir.path() + "/results.db";
  RunResult run;
  run.name = "internal";
  run.started_at = "2026-11-30T15:00:00Z";
  run.target = "/srv/nas";
  run.engine = "psync";
  run.measured_on = "nas";
  run.telemetry = UnbalancedTelemetry();
  DirectionResult read;
  read.bytes = 110'600'000;
  read.ios = 1000;
  read.seconds = 1;
  read.mb_per_s = 110.6;
  run.read = read;
  RunResult plain = run;
  plain.name = "client only";
  plain.measured_on = "client";
  plain.telemetry = nullptr;
  {
    Result<ResultsStore> store = ResultsStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().message();
    Result<int64_t> inv = store.value().BeginInvocation("run", "nasperf run --on nas:7777", run.started_at);
    ASSERT_TRUE(inv.ok()) << inv.status().message();
    ASSERT_TRUE(store.value().Save(run, inv.value()).ok());
    ASSERT_TRUE(store.value().Save(plain, inv.value()).ok());
  }

  CliResult human = RunNasperf({"results", "show", std::to_string(run.id), "--db", db});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(Contains(human.out, "measured on: NAS (agent)\n")) << human.out;
  EXPECT_TRUE(Contains(human.out, "Telemetry (NAS, 1 Hz, 3 samples)\n")) << human.out;
  EXPECT_TRUE(Contains(human.out, "  CPU0 98 % busy (71 % softirq) while CPU1 idle (4 %): interrupts not balanced — "
                                  "NIC eth0's IRQs all on CPU0\n"))
      << human.out;
  EXPECT_TRUE(Contains(human.out, "  disk sda 97 % utilised, 110.6 MB/s read, 0.0 MB/s write (median): the disk is "
                                  "the bottleneck\n"))
      << human.out;
  EXPECT_TRUE(Contains(human.out, "  page cache grew 1.9 GiB during the run")) << human.out;
  EXPECT_TRUE(Contains(human.out, "  no sensors\n")) << human.out;

  json doc = NasperfJson({"results", "show", std::to_string(run.id), "--db", db, "--json"});
  ASSERT_EQ(doc["runs"].size(), 1u) << doc.dump(1);
  EXPECT_EQ(doc["runs"][0]["measured_on"], "nas");
  EXPECT_EQ(doc["runs"][0]["telemetry"], json(UnbalancedTelemetry()));

  CliResult other = RunNasperf({"results", "show", std::to_string(plain.id), "--db", db});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_FALSE(Contains(other.out, "measured on")) << other.out;
  EXPECT_FALSE(Contains(other.out, "Telemetry")) << other.out;
  json plain_doc = NasperfJson({"results", "show", std::to_string(plain.id), "--db", db, "--json"});
  EXPECT_EQ(plain_doc["runs"][0]["measured_on"], "client");
  EXPECT_FALSE(plain_doc["runs"][0].contains("telemetry"));
}

}  // namespace
}  // namespace nasperf::e2e
