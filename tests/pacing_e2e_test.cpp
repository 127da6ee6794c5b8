// E2E tests of paced runs (--rate-iops, --rate) on a real local file: the achieved rate,
// the document's "pacing" member and the table's labels.
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

// The issue promises the achieved rate within 1 % of the target. The schedule never drifts
// (I/O i is due at i / rate, whenever the one before it ended), so over 3 s at 500 IOPS the
// count is 1500 +- 1; but the measured time ends at the deadline or at the last completion
// after it, which a loaded shared machine (2 cores, several builds) can delay by a
// scheduling slice or two. ±2 % leaves room for that and still fails a pacer that drifts
// or resets its schedule.
constexpr double kTolerancePct = 2.0;

json RunPaced(const std::vector<std::string>& args) {
  CliResult r = RunNasperf(args, 60);
  EXPECT_EQ(r.exit_code, 0) << "stderr: " << r.err << "\nstdout: " << r.out;
  json doc;
  EXPECT_TRUE(ParseJson(r.out, &doc));
  if (!doc.contains("runs") || doc["runs"].size() != 1) {
    ADD_FAILURE() << "expected one run: " << r.out;
    return json::object();
  }
  return doc["runs"][0];
}

TEST(PacingE2eTest, RateIopsOnALocalFileAchievesTheTarget) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = RunPaced({"run", dir.path(), "--rate-iops", "500", "--time", "3", "--rw", "randread", "--bs", "4k",
                       "--size", "16m", "--json"});
  ASSERT_TRUE(run.contains("read") && run.contains("pacing")) << run.dump(2);
  const double iops = run["read"]["iops"].get<double>();
  EXPECT_NEAR(iops, 500, 500 * kTolerancePct / 100) << "measured " << iops << " IOPS";
  const json& p = run["pacing"];
  EXPECT_DOUBLE_EQ(p["target_iops"].get<double>(), 500);
  EXPECT_NEAR(p["achieved_iops"].get<double>(), iops, 1e-9) << "the pacing facts are the run's own figures";
  EXPECT_EQ(p["rates_are"], "job total over all threads");
  EXPECT_EQ(p["lat_us_from"], "intended start");
  ASSERT_TRUE(p.contains("read_service_us"));
  // Latency from the intended start can only be longer than the service time from the submit.
  EXPECT_GE(run["read"]["lat_us"]["mean"].get<double>(), p["read_service_us"]["mean"].get<double>());
  EXPECT_DOUBLE_EQ(run["job"]["rate_iops"].get<double>(), 500);
  std::printf(
      "--rate-iops 500 --time 3: %.2f IOPS achieved; latency mean %.1f us from intended start, service %.1f us\n", iops,
      run["read"]["lat_us"]["mean"].get<double>(), p["read_service_us"]["mean"].get<double>());
}

// The rate is the job's total: two threads at --rate-iops 400 move 400 together.
TEST(PacingE2eTest, RateIsTheJobsTotalOverItsThreads) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = RunPaced({"run", dir.path(), "--rate-iops", "400", "--threads", "2", "--time", "2", "--rw", "randread",
                       "--bs", "4k", "--size", "8m", "--json"});
  ASSERT_TRUE(run.contains("read") && run.contains("pacing")) << run.dump(2);
  EXPECT_NEAR(run["read"]["iops"].get<double>(), 400, 400 * kTolerancePct / 100);
  EXPECT_DOUBLE_EQ(run["pacing"]["per_thread_target_iops"].get<double>(), 200);
  EXPECT_EQ(run["pacing"]["threads"], 2);
}

// Issue 33: at 2 IOPS for 3 s the I/Os are due at 0, 0.5 ... 2.5 s; the window given
// ends at the deadline, so "3.00 s measured" and 6 / 3 = 2.0 achieved, where it printed
// "2.50 s measured ... 2.4 achieved (sustained: within 1 %)".
TEST(PacingE2eTest, ALowRatesWindowEndsAtTheDeadline) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"run", dir.path(), "--rw", "randread", "--bs", "4k", "--size", "16m", "--time", "3",
                            "--rate-iops", "2", "--no-store"},
                           60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("3.00 s measured"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", 2 achieved (sustained: within 1 %)"), std::string::npos) << r.out;
}

// Issue 33: a 1 s ramp before 2 s at 200,000 IOPS printed "293036 achieved (sustained)":
// the ramp's I/Os had fallen behind a schedule that started with the ramp and were issued
// at once into the measured window. Whatever this machine can do, the measured window
// never holds more than the schedule asks of it, and more would not be "sustained".
TEST(PacingE2eTest, ARampDoesNotBankIOsIntoTheMeasuredWindow) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = RunPaced({"run", dir.path(), "--rw", "randread", "--bs", "4k", "--size", "64m", "--time", "2", "--ramp",
                       "1", "--rate-iops", "200000", "--json", "--no-store"});
  ASSERT_TRUE(run.contains("pacing")) << run.dump(2);
  const json& p = run["pacing"];
  EXPECT_LE(p["achieved_iops"].get<double>(), 200000 * 1.01) << p.dump(2);
  EXPECT_LE(p["excess_pct"].get<double>(), 1.0) << p.dump(2);
  std::printf("--ramp 1 --time 2 --rate-iops 200000: %.0f IOPS achieved, sustained %s\n",
              p["achieved_iops"].get<double>(), p["sustained"].get<bool>() ? "true" : "false");
}

// The table says what the latencies are timed from and shows the service times beside them.
TEST(PacingE2eTest, TableLabelsLatencyAndServiceTime) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r =
      RunNasperf({"run", dir.path(), "--rate", "8", "--time", "1", "--rw", "write", "--bs", "64k", "--size", "8m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("service time, from each I/O's submit (the latencies above are from its intended start):"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("paced: 8 MB/s scheduled (--rate 8 MB/s, the job's total over 1 thread, 8 per thread)"),
            std::string::npos)
      << r.out;
}

// Ctrl-C in the middle of a minute of think time: the wait is cut into short steps, so the
// run stops as promptly as an unpaced one (2 s), partial, and leaves no file behind.
TEST(PacingE2eTest, CtrlCDuringALongThinkStopsPromptly) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  BackgroundProcess p = StartNasperf({"run", dir.path(), "--think", "1m", "--time", "120", "--rw", "randread", "--bs",
                                      "4k", "--size", "1m", "--json"});
  ASSERT_TRUE(p.running());
  ASSERT_NE(WaitForNasperfFile(dir.path(), 10), "") << "nasperf created no file in 10 s";
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_TRUE(p.Signal(SIGINT)) << "nasperf ended before Ctrl-C";
  CliResult r = p.Finish(10);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 130) << "stderr: " << r.err;
  EXPECT_LE(r.elapsed_s, 2.0) << "took too long to stop after SIGINT";
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_EQ(doc["runs"].size(), 1u);
  EXPECT_EQ(doc["runs"][0]["partial"], true);
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(dir.path()));
}

}  // namespace
}  // namespace nasperf::e2e
