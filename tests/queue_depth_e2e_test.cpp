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

TEST(QueueDepthE2eTest, CompareListsASynchronousEnginesQueueDepth) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("r.db");
  auto stored = [&](const char* engine) {
    json doc = NasperfJson({"run", dir.path(), "--engine", engine, "--qd", "8", "--rw", "randread", "--bs", "4k",
                            "--size", "4m", "--db", db, "--json"});
    return doc.contains("runs") && doc["runs"].size() == 1 ? doc["runs"][0] : json::object();
  };
  json uring = stored("io_uring");
  if (uring.empty()) NASPERF_SKIP_OR_FAIL("io_uring does not run here");
  json psync = stored("psync");
  ASSERT_EQ(uring["job"].value("qd_run", 0), 8) << uring["job"].dump();
  ASSERT_EQ(psync["job"].value("qd_run", 0), 1) << psync["job"].dump();

  json cmp = NasperfJson({"results", "compare", std::to_string(uring["id"].get<int64_t>()),
                          std::to_string(psync["id"].get<int64_t>()), "--db", db, "--json"});
  ASSERT_TRUE(cmp.contains("compare")) << cmp.dump(2);
  const std::string differences = cmp["compare"]["differences"].dump();
  EXPECT_TRUE(Contains(differences, "job.qd: 8 vs 8 requested, 1 run (engine synchronous)")) << differences;

  CliResult human = RunNasperf({"results", "compare", std::to_string(uring["id"].get<int64_t>()),
                                std::to_string(psync["id"].get<int64_t>()), "--db", db});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(Contains(human.out, "8 requested, 1 run (engine synchronous)")) << human.out;
}

// `run`'s heading says the queue depth that ran.
TEST(QueueDepthE2eTest, RunTableSaysTheQueueDepthRun) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"run", dir.path(), "--engine", "psync", "--qd", "8", "--rw", "read", "--size", "4m",
                            "--db", dir.Sub("r.db")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(Lines(r.out).empty());
  const std::string heading = Lines(r.out)[0];
  EXPECT_TRUE(Contains(heading, "QD1 T1")) << heading;
  EXPECT_TRUE(Contains(heading, "--qd 8 asked")) << heading;
}

}  // namespace
}  // namespace nasperf::e2e
