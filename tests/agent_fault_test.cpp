// Fault tests of the agent: the agent killed or frozen mid-job, the client killed
// mid-job, SIGTERM to the agent. Each must end bounded, store what was measured and
// leave no .nasperf-* file behind (except where SIGKILL makes that impossible).
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <string>
#include <vector>

#include "agent_test_support.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

class AgentFaultTest : public AgentFixture {
 protected:
  BackgroundProcess StartLongRemoteRun(const std::string& db) {
    return StartNasperf({"run", "--on", agent_.address(), "--rw", "write", "--bs", "64k", "--size", "64m", "--time",
                         "10", "--token-file", token_file_, "--db", db, "--json"});
  }
  // Waits until the agent's job is writing and has sent a sample or two.
  void WaitForJob() {
    ASSERT_NE(WaitForNasperfFile(root_, 10), "") << "the agent created no file in 10 s";
    SleepSeconds(2.2);
  }
  void ExpectPartialStoredRun(const std::string& db) {
    json runs = StoredRuns(db);
    ASSERT_EQ(runs.size(), 1u) << runs.dump(2);
    EXPECT_EQ(runs[0]["partial"], true);
    ASSERT_TRUE(runs[0].contains("write")) << "nothing of what the samples measured was kept: " << runs[0].dump(2);
    EXPECT_GT(runs[0]["write"]["bytes"].get<uint64_t>(), 0u);
  }
};

TEST_F(AgentFaultTest, AgentKilledMidRunClientStoresPartialWithinFiveSeconds) {
  std::string db = dir_.Sub("results.sqlite");
  BackgroundProcess client = StartLongRemoteRun(db);
  WaitForJob();
  ASSERT_TRUE(agent_.process.Signal(SIGKILL));
  expect_clean_root_ = false;  // a SIGKILL leaves the job's file; `nasperf clean` finds it
  agent_.process.Finish(5);
  auto killed_at = std::chrono::steady_clock::now();
  CliResult r = client.Finish(10);
  double after_kill_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(after_kill_s, 5.0);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, "agent")) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  EXPECT_EQ(doc["runs"][0]["partial"], true);
  ExpectPartialStoredRun(db);
}

TEST_F(AgentFaultTest, FrozenAgentClientGivesUpAfterThreeSilentSeconds) {
  std::string db = dir_.Sub("results.sqlite");
  BackgroundProcess client = StartLongRemoteRun(db);
  WaitForJob();
  ASSERT_TRUE(agent_.process.Signal(SIGSTOP));
  auto stopped_at = std::chrono::steady_clock::now();
  CliResult r = client.Finish(10);
  double after_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped_at).count();
  agent_.process.Signal(SIGCONT);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_LT(after_s, 5.0);
  EXPECT_TRUE(Contains(r.err, "sent nothing for 3 s")) << r.err;
  ExpectPartialStoredRun(db);
  // The thawed agent notices its client is gone, stops the job and removes its file.
  for (int i = 0; i < 100 && !NasperfFiles(root_).empty(); ++i) SleepSeconds(0.1);
  EXPECT_TRUE(NasperfFiles(root_).empty());
  agent_.process.Signal(SIGTERM);
  EXPECT_EQ(agent_.process.Finish(10).exit_code, 0);
}

TEST_F(AgentFaultTest, ClientKilledAgentRemovesFilesAndServesTheNext) {
  BackgroundProcess client = StartLongRemoteRun(dir_.Sub("results.sqlite"));
  WaitForJob();
  ASSERT_TRUE(client.Signal(SIGKILL));
  client.Finish(5);
  for (int i = 0; i < 50 && !NasperfFiles(root_).empty(); ++i) SleepSeconds(0.1);
  EXPECT_TRUE(NasperfFiles(root_).empty()) << "the agent kept the dead client's files";
  CliResult next = RunNasperf({"run", "--on", agent_.address(), "--rw", "write", "--size", "4m", "--token-file",
                               token_file_, "--no-store", "--json"},
                              30);
  EXPECT_EQ(next.exit_code, 0) << next.err;
  agent_.process.Signal(SIGTERM);
  EXPECT_EQ(agent_.process.Finish(10).exit_code, 0);
  EXPECT_TRUE(NasperfFiles(root_).empty());
}

TEST_F(AgentFaultTest, SigtermStopsTheAgentCleanlyMidJob) {
  std::string db = dir_.Sub("results.sqlite");
  BackgroundProcess client = StartLongRemoteRun(db);
  WaitForJob();
  ASSERT_TRUE(agent_.process.Signal(SIGTERM));
  CliResult agent = agent_.process.Finish(10);
  EXPECT_FALSE(agent.timed_out);
  EXPECT_EQ(agent.exit_code, 0) << agent.err;
  EXPECT_LT(agent.elapsed_s, 5.0);
  EXPECT_TRUE(DirEntries(root_).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(root_));
  CliResult r = client.Finish(10);
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.exit_code, 0);
  ExpectPartialStoredRun(db);
}

}  // namespace
}  // namespace nasperf::e2e
