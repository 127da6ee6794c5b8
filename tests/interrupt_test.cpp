// E2E tests of Ctrl-C/SIGTERM: stop within 2 s, partial result, exit 130, no .nasperf-* file left.
#include <signal.h>

#include <chrono>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"
#include "testing/sizes.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

using testing::kGiB;

void SleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

struct Job {
  const char* name;
  std::vector<std::string> args;  // after "run DIR"
  const char* direction;          // "read" or "write": the one that must have measured bytes
};

void PrintTo(const Job& j, std::ostream* os) { *os << j.name; }

class InterruptRunTest : public ::testing::TestWithParam<Job> {};

TEST_P(InterruptRunTest, StopsWithPartialResultAndCleansUp) {
  for (bool as_json : {true, false}) {
    SCOPED_TRACE(as_json ? "--json" : "table");
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    std::vector<std::string> args = {"run", dir.path()};
    args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
    if (as_json) args.push_back("--json");
    BackgroundProcess p = StartNasperf(args);
    ASSERT_TRUE(p.running());
    ASSERT_NE(WaitForNasperfFile(dir.path(), 10), "") << "nasperf created no file in 10 s";
    SleepSeconds(1.5);
    ASSERT_TRUE(p.Signal(SIGINT)) << "nasperf ended before Ctrl-C";
    CliResult r = p.Finish(10);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.term_signal, 0) << "killed by the signal instead of handling it";
    EXPECT_EQ(r.exit_code, 130) << "stderr: " << r.err;
    EXPECT_LE(r.elapsed_s, 2.0) << "took too long to stop after SIGINT";
    EXPECT_TRUE(OnlyWarningsOrProgress(r.err));
    if (as_json) {
      json doc;
      ASSERT_TRUE(ParseJson(r.out, &doc));
      ASSERT_TRUE(HasDocumentShape(doc));
      ASSERT_EQ(doc["runs"].size(), 1u);
      const json& run = doc["runs"][0];
      EXPECT_EQ(run["partial"], true);
      EXPECT_TRUE(HasConsistentFigures(run));
      ASSERT_TRUE(run.contains(GetParam().direction)) << run.dump(2);
      EXPECT_GT(run[GetParam().direction]["bytes"].get<uint64_t>(), 0u) << "nothing measured before Ctrl-C";
      EXPECT_GT(run[GetParam().direction]["seconds"].get<double>(), 1.0);
      EXPECT_LT(run[GetParam().direction]["seconds"].get<double>(), 5.0);
    } else {
      EXPECT_NE(r.out.find("PARTIAL"), std::string::npos) << "the table is not marked partial:\n" << r.out;
      EXPECT_NE(r.out.find("MB/s"), std::string::npos) << r.out;
    }
    EXPECT_TRUE(DirEntries(dir.path()).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(dir.path()));
  }
}

INSTANTIATE_TEST_SUITE_P(Jobs, InterruptRunTest,
                         ::testing::Values(Job{"RandWritePsync",
                                               {"--rw", "randwrite", "--bs", "4k", "--size", "64m", "--time", "30"},
                                               "write"},
                                           Job{"RandReadIoUringDirectTwoThreads",
                                               {"--rw", "randread", "--bs", "4k", "--size", "16m", "--time", "30",
                                                "--engine", "io_uring", "--qd", "32", "--direct", "--threads", "2"},
                                               "read"}),
                         [](const ::testing::TestParamInfo<Job>& info) { return std::string(info.param.name); });

// Ctrl-C while the test file of a read job is still being written.
TEST(InterruptE2eTest, DuringFileLayout) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  if (FreeBytesAt(dir.path()) < 4 * kGiB) NASPERF_SKIP_OR_FAIL("needs 4 GiB free in " + dir.path());
  BackgroundProcess p = StartNasperf({"run", dir.path(), "--rw", "read", "--bs", "1m", "--size", "2g", "--json"});
  ASSERT_TRUE(p.running());
  // A file with data in it: the layout has begun (an empty one could be a probe).
  ASSERT_NE(WaitForNasperfFile(dir.path(), 10, 1), "") << "no file being laid out within 10 s";
  ASSERT_TRUE(p.Signal(SIGINT)) << "nasperf ended before Ctrl-C";
  CliResult r = p.Finish(10);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, 0) << "killed by the signal instead of handling it";
  EXPECT_EQ(r.exit_code, 130) << "stderr: " << r.err;
  EXPECT_LE(r.elapsed_s, 2.0) << "took too long to stop after SIGINT";
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  EXPECT_EQ(doc["runs"][0]["partial"], true);
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(dir.path()));
}

// Ctrl-C in the middle of quick: the runs done so far, the interrupted one partial.
TEST(InterruptE2eTest, DuringQuick) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  BackgroundProcess p =
      StartNasperf({"quick", dir.path(), "--size", "256m", "--repeat", "3", "--time", "30", "--json"});
  ASSERT_TRUE(p.running());
  ASSERT_NE(WaitForNasperfFile(dir.path(), 20, 256ull << 20), "") << "the test file was not laid out within 20 s";
  SleepSeconds(0.5);
  ASSERT_TRUE(p.Signal(SIGINT)) << "nasperf ended before Ctrl-C";
  CliResult r = p.Finish(10);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_EQ(r.exit_code, 130) << "stderr: " << r.err;
  EXPECT_LE(r.elapsed_s, 2.0);
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  const json& runs = doc["runs"];
  ASSERT_GE(runs.size(), 1u);
  EXPECT_LT(runs.size(), 8u) << "all eight tests ran despite Ctrl-C";
  for (size_t i = 0; i + 1 < runs.size(); ++i) EXPECT_EQ(runs[i]["partial"], false) << "run " << i;
  EXPECT_EQ(runs.back()["partial"], true);
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(dir.path()));
}

// SIGTERM (a service manager, `kill`) cleans up like Ctrl-C.
TEST(InterruptE2eTest, SigtermCleansUp) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  BackgroundProcess p =
      StartNasperf({"run", dir.path(), "--rw", "randwrite", "--bs", "4k", "--size", "16m", "--time", "30", "--json"});
  ASSERT_TRUE(p.running());
  ASSERT_NE(WaitForNasperfFile(dir.path(), 10), "");
  SleepSeconds(0.5);
  ASSERT_TRUE(p.Signal(SIGTERM));
  CliResult r = p.Finish(10);
  EXPECT_EQ(r.term_signal, 0) << "killed by SIGTERM instead of handling it";
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LE(r.elapsed_s, 2.0);
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  EXPECT_EQ(doc["runs"][0]["partial"], true);
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(dir.path()));
}

}  // namespace
}  // namespace nasperf::e2e
