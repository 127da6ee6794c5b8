// A run crosses the wire as RunToJson and comes back with RunFromJson unchanged.
#include <gtest/gtest.h>

#include "model/run_json.h"

namespace nasperf {
namespace {

TEST(RunWireTest, RunFromJsonReadsWhatRunToJsonWrote) {
  RunResult r;
  r.name = "n";
  r.test = "SEQ1M Q8T1";
  r.target = "agent 127.0.0.1:7070:.";
  r.partial = true;
  r.error = "cancelled";
  r.job.rw = AccessPattern::kRandReadWrite;
  r.job.bs = 4096;
  r.job.qd = 8;
  r.job.repeat = 3;
  r.engine = "io_uring";
  r.read = DirectionResult{4096 * 10, 10, 2.0, 0.02048, 5, {1, 2, 3, 4, 5, 6}, 0, nullptr};
  r.write = DirectionResult{4096 * 4, 4, 2.0, 0.008192, 2, {7, 8, 9, 10, 11, 12}, 1, nullptr};
  r.cpu = {12.5, 3.25};
  r.samples = {{1, 2, 3}, {2, 4, 5}};
  r.tags = {{"k", "v"}};
  r.notes = {"a note"};
  r.repeats = {RepeatFigures{1, 2, 3, 4, 5, 6, 7, 8, 9}, RepeatFigures{2, 3, 4, 5, 6, 7, 8, 9, 10}};
  r.inventory = {{"host", {{"hostname", "nas"}}}};
  r.measured_on = "nas";
  r.telemetry = {{"samples", nlohmann::ordered_json::array()}, {"summary", {"no sensors"}}};

  nlohmann::json wire = nlohmann::json(RunToJson(r));
  wire["measured_on"] = r.measured_on;  // the agent adds these if RunToJson does not
  wire["telemetry"] = nlohmann::json(r.telemetry);
  Result<RunResult> back = RunFromJson(wire);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const RunResult& b = back.value();
  EXPECT_EQ(b.name, r.name);
  EXPECT_EQ(b.test, r.test);
  EXPECT_EQ(b.partial, true);
  EXPECT_EQ(b.error, r.error);
  EXPECT_EQ(b.job.rw, r.job.rw);
  EXPECT_EQ(b.job.qd, 8u);
  EXPECT_EQ(b.engine, "io_uring");
  ASSERT_TRUE(b.read && b.write);
  EXPECT_EQ(b.read->bytes, r.read->bytes);
  EXPECT_EQ(b.read->lat.p999_us, 5);
  EXPECT_EQ(b.write->errors, 1u);
  EXPECT_EQ(b.cpu.sys_pct, 3.25);
  ASSERT_EQ(b.samples.size(), 2u);
  EXPECT_EQ(b.samples[1].write_mb_per_s, 5);
  EXPECT_EQ(b.tags, r.tags);
  EXPECT_EQ(b.notes, r.notes);
  ASSERT_EQ(b.repeats.size(), 2u);
  EXPECT_EQ(b.repeats[1].write_lat_p99_us, 9);
  EXPECT_EQ(b.inventory["host"]["hostname"], "nas");
  EXPECT_EQ(b.measured_on, "nas");
  EXPECT_EQ(b.telemetry["summary"][0], "no sensors");
}

TEST(RunWireTest, RunFromJsonRefusesMalformedRuns) {
  EXPECT_FALSE(RunFromJson(nlohmann::json::array()).ok());
  EXPECT_FALSE(RunFromJson({{"name", "x"}}).ok());  // no job
  EXPECT_FALSE(RunFromJson({{"job", {{"rw", "sideways"}, {"bs", 1}, {"qd", 1}, {"threads", 1}, {"size", 1}}}}).ok());
  EXPECT_FALSE(RunFromJson({{"job", {{"rw", "read"}, {"bs", 1}, {"qd", 1}, {"threads", 1}, {"size", 1}}},
                            {"samples", "not a list"}})
                   .ok());
}

}  // namespace
}  // namespace nasperf
