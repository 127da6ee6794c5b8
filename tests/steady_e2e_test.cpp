// E2E tests of --steady and --repeat-until on null: a rule that must hold stops the run at
// its window, one that cannot says "not steady" when --time ends, and --repeat-until says
// whether it got there and after how many repeats.
#include <string>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using json = nlohmann::json;

// Two per-second figures a, b always lie within 100 % of their mean ((a+b)/2 >= |a-b|/2),
// so the window holds as soon as it is full, whatever this machine's speed: at 2 s of 30.
TEST(SteadyTest, AWindowThatMustHoldStopsTheRunThere) {
  json doc =
      NasperfJson({"run", "null:", "--size", "1t", "--time", "30s", "--steady", "bw:100%:2s", "--no-store", "--json"});
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& run = doc["runs"][0];
  ASSERT_TRUE(run.contains("steady")) << run.dump(2);
  EXPECT_EQ(run["steady"]["reached"], true);
  EXPECT_NEAR(run["steady"]["at_s"].get<double>(), 2.0, 0.5);  // the second full one-second figure
  EXPECT_EQ(run["steady"]["metric"], "bw");
  EXPECT_GT(run["steady"]["mean"].get<double>(), 0);
  EXPECT_LT(run["read"]["seconds"].get<double>(), 10.0) << "ran on after the window held";
  EXPECT_EQ(run["partial"], false);
  EXPECT_EQ(run["job"]["steady"], "bw:100%:2s");
  EXPECT_TRUE(HasConsistentFigures(run));
}

// Issue 19 item 6: a run the steady rule ended had ended normally, so --verify still reads
// back every byte it wrote (it skipped that, and the fsync inside the clock, as if the run
// had been aborted).
TEST(SteadyTest, SteadyEndStillVerifiesWhatItWrote) {
  TempDir dir;
  json doc = NasperfJson({"run", dir.path(), "--rw", "write", "--bs", "64k", "--size", "8m", "--time", "30s", "--steady",
                          "bw:100%:2s", "--fsync", "--verify", "--no-store", "--json"});
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& run = doc["runs"][0];
  ASSERT_TRUE(run.contains("steady")) << run.dump(2);
  EXPECT_EQ(run["steady"]["reached"], true);
  EXPECT_EQ(run["partial"], false);
  ASSERT_TRUE(run.contains("verified_bytes")) << run.dump(2);
  EXPECT_GT(run["verified_bytes"].get<uint64_t>(), 0u) << "the read-back never ran";
  bool noted = false;
  for (const json& note : run["notes"]) noted = noted || Contains(note.get<std::string>(), "verify: read back all");
  EXPECT_TRUE(noted) << run["notes"].dump();
}

TEST(SteadyTest, TimeEndingFirstIsNotSteady) {
  CliResult r =
      RunNasperf({"run", "null:", "--size", "1t", "--time", "3s", "--steady", "iops:0.000001%:2s", "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "steady: not steady: --time ended first")) << r.out;
  json doc = NasperfJson(
      {"run", "null:", "--size", "1t", "--time", "3s", "--steady", "iops:0.000001%:2s", "--no-store", "--json"});
  EXPECT_EQ(doc["runs"][0]["steady"]["reached"], false);
}

TEST(RepeatUntilTest, UnmetRunsToTheCapAndSaysSo) {
  json doc = NasperfJson(
      {"run", "null:", "--size", "16m", "--repeat-until", "0.000001%", "--repeat", "5", "--no-store", "--json"});
  const json& run = doc["runs"][0];
  ASSERT_TRUE(run.contains("repeat_until")) << run.dump(2);
  EXPECT_EQ(run["repeat_until"]["met"], false);
  EXPECT_EQ(run["repeat_until"]["repeats"], 5);
  EXPECT_EQ(run["repeat_until"]["min_repeats"], 5);
  EXPECT_EQ(run["repeats"]["each"].size(), 5u);
  EXPECT_FALSE(run["repeats"].contains("ci_after_data_dependent_stop")) << "it ran to its cap: n was fixed";
}

// Issue 33 item 7: a rule any interval meets stopped at n = 2 and printed a fixed-n 95 %
// interval as if n had been fixed. It is checked from 5 repeats on, and the interval of
// the stopped series says it is the fixed-n formula after a data-dependent stop.
TEST(RepeatUntilTest, AStopComesNoEarlierThanFiveRepeatsAndItsIntervalSaysSo) {
  // Repeats of 1 s each (null: over 16m is microseconds, too noisy for any rule here).
  CliResult r =
      RunNasperf({"run", "null:", "--size", "1t", "--time", "1s", "--repeat-until", "100%", "--no-store"}, 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "median of 5 repeats; 95 % CI of the mean ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "(Student t on the mean; fixed-n formula after a data-dependent stop: wider in truth)"))
      << r.out;
  EXPECT_TRUE(Contains(r.out, "of the median after 5 repeats (checked from 5 repeats on)")) << r.out;
  json doc = NasperfJson(
      {"run", "null:", "--size", "1t", "--time", "1s", "--repeat-until", "100%", "--no-store", "--json"}, 120);
  const json& run = doc["runs"][0];
  EXPECT_EQ(run["repeat_until"]["met"], true);
  EXPECT_EQ(run["repeat_until"]["repeats"], 5);
  EXPECT_EQ(run["repeats"]["ci_after_data_dependent_stop"], true);
}

// Issue 33 item 7: the steady run's rows did not say which figure was the whole run and
// which the steady window; each row is labelled now.
TEST(SteadyTest, TheTableLabelsTheWholeRunAndTheSteadyWindowRows) {
  CliResult r = RunNasperf({"run", "null:", "--size", "1t", "--time", "30s", "--steady", "bw:100%:2s", "--no-store"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "\nread, whole run ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "\nsteady window ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "\"whole run\" is every measured second, \"steady window\" the last 2 s")) << r.out;
}

TEST(RepeatUntilTest, DefaultCapIsTenAndTheTableSaysHowManyRepeats) {
  CliResult r = RunNasperf({"run", "null:", "--size", "16m", "--repeat-until", "0.000001%", "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "repeat-until: not met")) << r.out;
  EXPECT_TRUE(Contains(r.out, "after 10 repeats (the cap is --repeat 10)")) << r.out;
}

}  // namespace
}  // namespace nasperf::e2e
