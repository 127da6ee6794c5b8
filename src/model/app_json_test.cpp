// The "app" member of a run: every field of AppFigures round-trips through the document,
// a document without it (or with members missing) reads, and a member of the wrong type is
// refused with a line naming it.
#include "model/app_json.h"

#include <gtest/gtest.h>

#include "model/run_json.h"
#include "testing/app_fixture.h"

namespace nasperf {
namespace {

RunResult AppRun() {
  RunResult r;
  r.name = "dir-copy";
  r.target = "smb://bench@198.18.0.2/bench";
  r.engine = "app";
  r.write = DirectionResult{283'467'841, 2950, 12.5, 22.677427, 236, {}, 0, nullptr};
  r.app = testing::FullAppFigures();
  return r;
}

TEST(AppJson, EveryFieldRoundTripsThroughTheRunDocument) {
  const RunResult run = AppRun();
  nlohmann::ordered_json j = RunToJson(run);
  ASSERT_TRUE(j.contains("app")) << j.dump();
  EXPECT_EQ(j["app"]["workload"], "dir-copy");
  EXPECT_EQ(j["app"]["ops"][1]["op"], "create");
  EXPECT_EQ(j["app"]["dataset"]["seed"], 18446744073709551557ull);
  // Through text, as a stored or imported document travels.
  Result<RunResult> back = RunFromJson(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back.value().app.has_value());
  EXPECT_EQ(*back.value().app, *run.app);
}

TEST(AppJson, UnknownOptionalsAreNotWritten) {
  AppFigures a;
  a.workload = "file-copy";
  nlohmann::ordered_json j = AppToJson(a);
  for (const char* key : {"source_mb_per_s", "fill_pct", "small_file_penalty", "max_streams", "dataset"})
    EXPECT_FALSE(j.contains(key)) << key;
  Result<AppFigures> back = AppFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value(), a);
}

TEST(AppJson, ARunWithoutAppHasNoMemberAndReadsBackWithout) {
  RunResult r = AppRun();
  r.app.reset();
  nlohmann::ordered_json j = RunToJson(r);
  EXPECT_FALSE(j.contains("app"));
  Result<RunResult> back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back.value().app.has_value());
  j["app"] = nullptr;
  back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back.value().app.has_value());
}

TEST(AppJson, MissingMembersKeepTheirDefaults) {
  Result<AppFigures> back = AppFromJson(nlohmann::json::parse(R"({"workload": "video", "ops": [{"op": "read"}]})"));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value().workload, "video");
  EXPECT_EQ(back.value().threads, 1u);
  EXPECT_EQ(back.value().cache_state, "");
  ASSERT_EQ(back.value().ops.size(), 1u);
  EXPECT_EQ(back.value().ops[0].count, 0u);
  EXPECT_FALSE(back.value().dataset.has_value());
}

TEST(AppJson, AMemberOfTheWrongTypeIsRefusedByName) {
  struct Case {
    const char* doc;
    const char* message;
  };
  for (const Case& c : {
           Case{R"("file-copy")", "app: expected an object, got \"file-copy\""},
           Case{R"({"elapsed_s": "12"})", "app.elapsed_s: expected a number, got \"12\""},
           Case{R"({"bytes": -1})", "app.bytes: expected a count, got -1"},
           Case{R"({"bytes": 1.5})", "app.bytes: expected a count, got 1.5"},
           Case{R"({"threads": 4294967296})", "app.threads: expected a count, got 4294967296"},
           Case{R"({"cache_state": true})", "app.cache_state: expected a string, got true"},
           Case{R"({"fill_pct": "33%"})", "app.fill_pct: expected a number, got \"33%\""},
           Case{R"({"ops": {}})", "app.ops: expected an array, got {}"},
           Case{R"({"ops": [{"op": "mkdir"}, {"count": "3"}]})", "app.ops[1].count: expected a count, got \"3\""},
           Case{R"({"streams": [7]})", "app.streams[0]: expected an object, got 7"},
           Case{R"({"max_streams": -2})", "app.max_streams: expected a count, got -2"},
           Case{R"({"dataset": {"digest": 5}})", "app.dataset.digest: expected a string, got 5"},
       }) {
    Result<AppFigures> r = AppFromJson(nlohmann::json::parse(c.doc));
    ASSERT_FALSE(r.ok()) << c.doc;
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << c.doc;
    EXPECT_EQ(r.status().message(), c.message);
  }
  // Through the run document, the fault is the run's.
  nlohmann::json j = nlohmann::json::parse(RunToJson(AppRun()).dump());
  j["app"]["ops"][0]["p99_us"] = "slow";
  Result<RunResult> run = RunFromJson(j);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), "app.ops[0].p99_us: expected a number, got \"slow\"");
}

}  // namespace
}  // namespace nasperf
