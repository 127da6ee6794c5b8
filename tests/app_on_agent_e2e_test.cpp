// E2E tests of `nasperf app WORKLOAD --on AGENT`: the workload runs in the agent's root
// and is stored here as the NAS's run; what the agent must refuse, it refuses in one line.
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "agent_test_support.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

class AppOnAgentTest : public AgentFixture {
 protected:
  void SetUp() override {
    AgentFixture::SetUp();
    ASSERT_EQ(::mkdir((root_ + "/bench").c_str(), 0700), 0);
  }
  std::vector<std::string> On(std::vector<std::string> args) {
    args.insert(args.end(), {"--on", agent_.address(), "--token-file", token_file_});
    return args;
  }
};

TEST_F(AppOnAgentTest, AFileCopyRunsInTheAgentsRootAndIsStoredHereAsTheNasRun) {
  const std::string db = dir_.Sub("results.sqlite");
  CliResult r = RunNasperf(On({"app", "file-copy", "--to", "bench", "--size", "8m", "--db", db}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("MB/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ran on agent " + agent_.address()), std::string::npos) << r.out;
  json runs = StoredRuns(db);
  ASSERT_EQ(runs.size(), 1u) << runs.dump(2);
  const json& run = runs[0];
  EXPECT_EQ(run["partial"], false);
  EXPECT_EQ(run["measured_on"], "nas");
  EXPECT_EQ(run["target"], "agent " + agent_.address() + ":.");
  // The child's descriptors are never what the run names: the directory's real path is.
  char real[PATH_MAX];
  ASSERT_NE(::realpath((root_ + "/bench").c_str(), real), nullptr);
  EXPECT_EQ(run["app"]["to"], std::string(real)) << run["app"].dump(2);
  EXPECT_EQ(run.dump().find("/dev/fd/"), std::string::npos) << run.dump(2);
  EXPECT_EQ(run["app"]["bytes"], 8u << 20) << run["app"].dump(2);
  EXPECT_TRUE(run["telemetry"].is_object()) << "the agent samples the NAS while the workload runs";
  EXPECT_TRUE(run["inventory"]["target"].is_object());
  EXPECT_TRUE(NasperfFiles(root_ + "/bench").empty());
}

TEST_F(AppOnAgentTest, ADirCopyOfASourceTreeUnderTheRootLeavesTheSourceAsItWas) {
  ASSERT_EQ(::mkdir((root_ + "/tree").c_str(), 0700), 0);
  ASSERT_TRUE(WriteFileBytes(root_ + "/tree/a.txt", std::string(100000, 'a')));
  ASSERT_TRUE(WriteFileBytes(root_ + "/tree/b.txt", std::string(5000, 'b')));
  CliResult r = RunNasperf(On({"app", "dir-copy", "--source", "tree", "--to", "bench", "--no-store", "--json"}));
  // A flag travels as a flag (lab.app found `--verify` sent as "--verify=true").
  CliResult verified = RunNasperf(On({"app", "dir-copy", "--to", "bench", "--preset", "small-files", "--scale", "0.01",
                                      "--verify", "--no-store", "--json"}));
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  json vdoc;
  ASSERT_TRUE(ParseJson(verified.out, &vdoc));
  EXPECT_EQ(vdoc["runs"].back()["verified_bytes"], vdoc["runs"].back()["app"]["bytes"]) << vdoc["runs"].back().dump(2);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_FALSE(doc["runs"].empty());
  const json& run = doc["runs"].back();
  EXPECT_EQ(run["name"], "dir-copy");
  EXPECT_EQ(run["app"]["files"], 2u) << run["app"].dump(2);
  EXPECT_EQ(DirEntries(root_ + "/tree"), (std::vector<std::string>{"a.txt", "b.txt"}));
  EXPECT_EQ(ReadFileBytes(root_ + "/tree/b.txt"), std::string(5000, 'b'));
  EXPECT_TRUE(NasperfFiles(root_ + "/bench").empty());
}

TEST_F(AppOnAgentTest, ABackupOnTheAgentSaysHowBusyTheNasWas) {
  CliResult r = RunNasperf(
      On({"app", "restore", "bench", "--preset", "small-files", "--scale", "0.5", "--no-store", "--json"}), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  const json& run = doc["runs"][0];
  std::string cpu;
  for (const json& line : run["telemetry"]["summary"])
    if (line.get<std::string>().rfind("CPU busy", 0) == 0) cpu = line;
  const std::string notes = run["notes"].dump();
  // The workload could not see the NAS; the agent's sample of it takes the note's place.
  EXPECT_EQ(notes.find("no agent telemetry"), std::string::npos) << notes;
  if (cpu.empty())
    EXPECT_NE(notes.find("took no sample while it ran"), std::string::npos) << notes;
  else
    EXPECT_NE(notes.find("NAS busy (the agent's telemetry while it ran): " + cpu), std::string::npos) << notes;
}

TEST_F(AppOnAgentTest, BadInputIsOneLineExitTwoAndNothingWritten) {
  TempDir outside;
  ASSERT_EQ(::symlink(outside.path().c_str(), (root_ + "/link").c_str()), 0);
  struct Case {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {On({"app", "video", "bench", "--user", "u"}), "--user has no meaning with --on"},
      {On({"app", "photo-album", "smb://host/share"}), "TARGET is a directory under the agent's --root"},
      {On({"app", "office", "../"}), "'..' is refused"},
      {On({"app", "office", "link"}), "a symlink is refused"},
      {On({"app", "dir-copy", "--to", "bench", "--source", "link"}), "--source"},
      {On({"app", "file-copy", "--to", "nfs://h/e"}), "must be a directory under the agent's --root"},
      {On({"app", "video", "bench", "--streams", "0"}), "--streams"},
      {{"app", "video", "bench", "--token-file", token_file_}, "--token-file needs --on"},
  };
  for (const Case& c : cases) {
    CliResult r = RunNasperf(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_TRUE(DirEntries(outside.path()).empty());
  EXPECT_TRUE(NasperfFiles(root_ + "/bench").empty());
}

// A client that is not nasperf: the agent checks every option itself.
TEST_F(AppOnAgentTest, TheAgentRefusesWhatNoAppCommandWouldSend) {
  Result<AgentConnection> conn = ConnectControl(agent_.port);
  ASSERT_TRUE(conn.ok());
  for (json option : {json::array({"db", dir_.Sub("planted.sqlite")}), json::array({"password-file", "/etc/shadow"}),
                      json::array({"source", "/etc"})}) {
    json start = {{"suite", "app"},
                  {"dir", "bench"},
                  {"app", {{"workload", "dir-copy"}, {"options", json::array({json::array({"to", "bench"}), option})}}}};
    Result<Frame> reply = conn.value().Request(MessageType::kJobStart, start, MessageType::kJobDone, milliseconds(10000));
    ASSERT_FALSE(reply.ok()) << option.dump();
    EXPECT_EQ(reply.status().kind(), ErrorKind::kBadInput) << reply.status().message();
  }
  struct stat st {};
  EXPECT_NE(::stat(dir_.Sub("planted.sqlite").c_str(), &st), 0) << "the agent wrote a database";
  EXPECT_TRUE(NasperfFiles(root_ + "/bench").empty());
}

TEST_F(AppOnAgentTest, CtrlCStopsTheWorkloadOnTheAgentAndItRemovesItsFiles) {
  // Office stages a few small documents, then runs for its --time: Ctrl-C lands in the timed part.
  BackgroundProcess p = StartNasperf(On({"app", "office", "bench", "--time", "60", "--users", "2", "--no-store"}));
  ASSERT_NE(WaitForNasperfFile(root_ + "/bench", 20), "") << "the workload never started on the agent";
  SleepSeconds(2);
  ASSERT_TRUE(p.Signal(SIGINT));
  CliResult r = p.Finish(30);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_LE(r.elapsed_s, 20.0) << "took too long to stop after SIGINT";
  // The partial run the agent sent back is printed, and says why it stopped.
  EXPECT_NE(r.out.find("interrupted"), std::string::npos) << "out: " << r.out << " err: " << r.err;
  // The agent's child removes its files as it unwinds; give it a moment.
  for (int i = 0; i < 50 && !NasperfFiles(root_ + "/bench").empty(); ++i) SleepSeconds(0.1);
  EXPECT_TRUE(NasperfFiles(root_ + "/bench").empty());
}

// The workload runs in a child of the agent: an agent killed outright (SIGKILL, no
// unwind of its own) must not leave it writing in the root. The kernel sends the child
// SIGTERM (PR_SET_PDEATHSIG), and it stops and removes its files as on Ctrl-C.
TEST_F(AppOnAgentTest, AnAgentKilledOutrightTakesItsWorkloadWithIt) {
  BackgroundProcess p = StartNasperf(On({"app", "office", "bench", "--time", "60", "--users", "2", "--no-store"}));
  ASSERT_NE(WaitForNasperfFile(root_ + "/bench", 20), "") << "the workload never started on the agent";
  SleepSeconds(1);
  ASSERT_TRUE(agent_.process.Signal(SIGKILL));
  CliResult agent = agent_.process.Finish(10);
  CliResult r = p.Finish(30);
  EXPECT_NE(r.exit_code, 0) << "the client saw its agent go";
  for (int i = 0; i < 100 && !NasperfFiles(root_ + "/bench").empty(); ++i) SleepSeconds(0.1);
  EXPECT_TRUE(NasperfFiles(root_ + "/bench").empty()) << "the orphaned workload is still writing, or left its files";
}

}  // namespace
}  // namespace nasperf::e2e
