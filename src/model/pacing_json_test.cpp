// The "pacing" member: written with its labels, read back as written, damaged input refused
// naming the member.
#include "model/pacing_json.h"

#include <gtest/gtest.h>

#include "model/run_json.h"

namespace nasperf {
namespace {

PacingFacts Sample() {
  PacingFacts f;
  f.target_iops = 5000;
  f.achieved_iops = 3120;
  f.achieved_mb_per_s = 12.78;
  f.sustained = false;
  f.shortfall_pct = 37.6;
  f.read_service = LatencySummary{320, 318, 330, 340, 900, 10000};
  return f;
}

TEST(PacingJson, WritesTargetsPerThreadAndLabels) {
  nlohmann::ordered_json j = PacingToJson(Sample(), 4);
  EXPECT_EQ(j["rates_are"], "job total over all threads");
  EXPECT_EQ(j["threads"], 4);
  EXPECT_DOUBLE_EQ(j["target_iops"].get<double>(), 5000);
  EXPECT_DOUBLE_EQ(j["per_thread_target_iops"].get<double>(), 1250);
  EXPECT_FALSE(j.contains("target_mb_per_s")) << "not paced by bytes";
  EXPECT_EQ(j["lat_us_from"], "intended start");
  EXPECT_EQ(j["service_us_from"], "submit");
  EXPECT_DOUBLE_EQ(j["read_service_us"]["p99"].get<double>(), 340);
  EXPECT_FALSE(j.contains("write_service_us"));
  EXPECT_EQ(j["sustained"], false);
}

TEST(PacingJson, RoundTripsThroughARun) {
  RunResult run;
  run.job.pacing.rate_iops = 5000;
  run.engine = "psync";
  run.pacing = Sample();
  Result<RunResult> back = RunFromJson(nlohmann::json::parse(RunToJson(run).dump()));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back.value().pacing);
  EXPECT_EQ(PacingToJson(*back.value().pacing, 1).dump(), PacingToJson(*run.pacing, 1).dump());
  EXPECT_DOUBLE_EQ(back.value().job.pacing.rate_iops, 5000);
}

TEST(PacingJson, UnpacedRunHasNoMember) {
  RunResult run;
  EXPECT_FALSE(RunToJson(run).contains("pacing"));
}

TEST(PacingJson, WrongTypesAreRefusedNamingTheMember) {
  EXPECT_EQ(PacingFromJson(nlohmann::json::parse(R"({"achieved_iops": "many"})")).status().message(),
            "pacing.achieved_iops: expected a number");
  EXPECT_EQ(PacingFromJson(nlohmann::json::parse(R"({"sustained": 1})")).status().message(),
            "pacing.sustained: expected true or false");
  EXPECT_EQ(PacingFromJson(nlohmann::json::parse(R"({"read_service_us": {"p99": null}})")).status().message(),
            "pacing.read_service_us.p99: expected a number");
  EXPECT_FALSE(PacingFromJson(nlohmann::json::parse("[1]")).ok());
}

}  // namespace
}  // namespace nasperf
