// E2E: labels come from the queue depth that ran. A synchronous engine runs --qd N at qd 1:
// quick's rows say Q1, the stored run keeps both (job.qd asked, job.qd_run run), and
// `results compare` lists the gap as a job difference.
#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

bool StartsWith(const std::string& line, const std::string& prefix) { return line.rfind(prefix, 0) == 0; }

TEST(QueueDepthE2eTest, QuickOnPsyncLabelsItsRowsQ1) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::vector<std::string> args = {"quick", dir.path(), "--engine", "psync", "--size", "4m",
                                         "--repeat", "1", "--time", "1", "--db", dir.Sub("r.db")};
  CliResult table = RunNasperf(args);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  int q1_rows = 0;
  for (const std::string& line : Lines(table.out)) {
    EXPECT_FALSE(StartsWith(line, "SEQ1M Q8T1") || StartsWith(line, "RND4K Q32T1"))
        << "a row labelled by the queue depth asked, not the one run: " << line << "\n" << table.out;
    if (StartsWith(line, "SEQ1M Q1T1") || StartsWith(line, "RND4K Q1T1")) ++q1_rows;
  }
  EXPECT_EQ(q1_rows, 4) << table.out;
  // The run's own note, under the table: why the rows say Q1.
  EXPECT_TRUE(Contains(table.out, "note: psync is synchronous: --qd 32 runs as qd 1 per thread")) << table.out;

  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  json doc = NasperfJson(with_json);
  ASSERT_TRUE(doc.contains("runs") && doc["runs"].size() == 8) << doc.dump(2);
  for (const json& run : doc["runs"]) {
    EXPECT_EQ(run["job"].value("qd_run", 0), 1) << run["job"].dump();
    EXPECT_TRUE(run["job"]["qd"] == 1 || run["job"]["qd"] == 8 || run["job"]["qd"] == 32) << "the asked qd is kept";
  }
}

// quick's suite asks Q8 and Q32; psync runs them at 1, and compare against io_uring's
// quick set lists that as a job difference.
TEST(QueueDepthE2eTest, CompareListsASynchronousEnginesQueueDepth) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("r.db");
  auto stored = [&](const char* engine) -> int64_t {
    json doc = NasperfJson({"quick", dir.path(), "--engine", engine, "--size", "4m", "--repeat", "1", "--time", "1",
                            "--db", db, "--json"});
    if (!doc.contains("runs") || doc["runs"].size() != 8) return 0;
    return doc["runs"][0].value("id", int64_t{0});
  };
  const int64_t uring = stored("io_uring");
  if (uring == 0) NASPERF_SKIP_OR_FAIL("io_uring does not run here");
  const int64_t psync = stored("psync");
  ASSERT_NE(psync, 0);

  json cmp = NasperfJson({"results", "compare", std::to_string(uring), std::to_string(psync), "--db", db, "--json"});
  ASSERT_TRUE(cmp.contains("compare")) << cmp.dump(2);
  const std::string differences = cmp["compare"]["differences"].dump();
  EXPECT_TRUE(Contains(differences, "requested, 1 run (engine synchronous)")) << differences;

  CliResult human = RunNasperf({"results", "compare", std::to_string(uring), std::to_string(psync), "--db", db});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(Contains(human.out, "requested, 1 run (engine synchronous)")) << human.out;
}

// `run`'s heading says the queue depth that ran; the user's own --qd on psync, which
// could never run it, is refused rather than stored.
TEST(QueueDepthE2eTest, RunTableSaysTheQueueDepthRun) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"run", dir.path(), "--engine", "io_uring", "--qd", "8", "--rw", "read", "--size", "4m",
                            "--db", dir.Sub("r.db")});
  if (r.exit_code != 0 && Contains(r.err, "io_uring")) NASPERF_SKIP_OR_FAIL("io_uring does not run here");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(Lines(r.out).empty());
  EXPECT_TRUE(Contains(Lines(r.out)[0], "QD8 T1")) << Lines(r.out)[0];
  EXPECT_FALSE(Contains(Lines(r.out)[0], "asked")) << Lines(r.out)[0];

  CliResult psync = RunNasperf({"run", dir.path(), "--engine", "psync", "--qd", "8", "--rw", "read", "--size", "4m",
                                "--db", dir.Sub("r.db")});
  EXPECT_EQ(psync.exit_code, 2) << psync.err;
  EXPECT_TRUE(Contains(psync.err, "--qd: the psync engine is synchronous")) << psync.err;
  EXPECT_EQ(Lines(psync.err).size(), 1u) << psync.err;
}

}  // namespace
}  // namespace nasperf::e2e
