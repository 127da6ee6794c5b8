// E2E tests of `nasperf diagnose`: a local directory diagnosed with a local agent serving
// a temp root (quick, 1 s steps), without an agent, with bad options and an unreachable
// agent.
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

#include "agent_test_support.h"
#include "model/diagnosis_json.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

// Lines of `err` that start with "step K/N: ".
std::vector<std::string> StepLines(const std::string& err) {
  std::vector<std::string> steps;
  for (const std::string& line : Lines(err))
    if (line.rfind("step ", 0) == 0 && line.find('/') != std::string::npos) steps.push_back(line);
  return steps;
}

size_t CountNotes(const std::string& err) {
  size_t n = 0;
  for (const std::string& line : Lines(err))
    if (line.rfind("note: ", 0) == 0) ++n;
  return n;
}

// Reads `p`'s stderr until `needle` has appeared (true) or `timeout_s` passed; what was
// read is appended to `*err`.
bool WaitForStderr(BackgroundProcess& p, const std::string& needle, double timeout_s, std::string* err) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(timeout_s * 1000));
  while (std::chrono::steady_clock::now() < deadline) {
    if (Contains(*err, needle)) return true;
    pollfd fd{p.stderr_fd(), POLLIN, 0};
    if (::poll(&fd, 1, 100) <= 0) continue;
    char buf[512];
    ssize_t n = ::read(p.stderr_fd(), buf, sizeof buf);
    if (n <= 0) return Contains(*err, needle);
    err->append(buf, static_cast<size_t>(n));
  }
  return Contains(*err, needle);
}

// `diagnose TARGET --quick` (1 s steps, an 8 MiB file, stored in `db`, --json) with
// `agent` as its agent, which is stopped after it.
CliResult QuickDiagnosisThenStop(RunningAgent& agent, const std::string& token, const std::string& target,
                                 const std::string& db) {
  CliResult r = RunNasperf({"diagnose", target, "--agent", agent.address(), "--token-file", token, "--quick",
                            "--step-time", "1", "--size", "8m", "--db", db, "--json"},
                           120);
  agent.process.Signal(SIGTERM);
  agent.process.Finish(10);
  return r;
}

class DiagnoseE2eTest : public AgentFixture {
 protected:
  void SetUp() override {
    AgentFixture::SetUp();
    target_ = dir_.Sub("target");
    ASSERT_EQ(::mkdir(target_.c_str(), 0700), 0);
    db_ = dir_.Sub("results.db");
  }
  std::vector<std::string> Quick(std::vector<std::string> extra) {
    std::vector<std::string> args = {"diagnose", target_, "--quick", "--step-time", "1", "--size", "8m", "--db", db_};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  std::vector<std::string> WithAgent(std::vector<std::string> extra) {
    extra.insert(extra.begin(), {"--agent", agent_.address(), "--token-file", token_file_});
    return Quick(extra);
  }
  bool DbExists() const {
    struct stat st;
    return ::stat(db_.c_str(), &st) == 0;
  }
  std::string target_, db_;
};

TEST_F(DiagnoseE2eTest, WithAgentPrintsThePlanRunsEveryStepAndStoresThem) {
  CliResult r = RunNasperf(WithAgent({"--json"}), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The plan first (on stderr under --json), then one line per step in order.
  EXPECT_TRUE(Contains(r.err, "quick plan")) << r.err;
  EXPECT_TRUE(Contains(r.err, "estimated ")) << r.err;
  std::vector<std::string> steps = StepLines(r.err);
  ASSERT_GE(steps.size(), 10u) << r.err;  // client x2, volume x2, net x4, target x2, and each member
  const std::string of = "/" + std::to_string(steps.size()) + ": ";
  for (size_t i = 0; i < steps.size(); ++i)
    EXPECT_EQ(steps[i].rfind("step " + std::to_string(i + 1) + of, 0), 0u) << steps[i];
  EXPECT_TRUE(std::any_of(steps.begin(), steps.end(), [](const std::string& s) {
    return Contains(s, "network up, 1 stream ... 1 s");
  })) << r.err;

  // stdout is the one JSON document.
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  // Every step measured is an ordinary stored run; a member the agent refused is a note.
  json runs = StoredRuns(db_);
  EXPECT_EQ(runs.size(), steps.size() - CountNotes(r.err)) << r.err;
  // The agent sampled the NAS during every step, here and on the agent alike.
  for (const json& run : runs) EXPECT_TRUE(run.contains("telemetry") && run["telemetry"].is_object()) << run["name"];
  // Each is tagged with the diagnosis it belongs to, dN as stored.
  ASSERT_TRUE(doc["id"].is_number_integer()) << doc.dump(2);
  const std::string tag = "d" + std::to_string(doc["id"].get<int64_t>());
  EXPECT_GT(doc["id"].get<int64_t>(), 0);
  for (const json& run : runs) EXPECT_EQ(run["tags"].value("diagnosis", ""), tag) << run["name"];
  Result<Diagnosis> d = DiagnosisFromJson(doc);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_FALSE(d.value().partial) << d.value().error;
  EXPECT_TRUE(d.value().evidence.agent);
  EXPECT_EQ(d.value().evidence.mode, "quick");
  EXPECT_TRUE(d.value().evidence.volume_seq.read_mb_per_s) << doc.dump(2);
  EXPECT_TRUE(d.value().evidence.net.up_4_mb_per_s) << doc.dump(2);
  EXPECT_TRUE(d.value().evidence.protocol_seq.write_mb_per_s) << doc.dump(2);
  EXPECT_FALSE(d.value().waterfall.empty()) << doc.dump(2);
  EXPECT_TRUE(NasperfFiles(target_).empty()) << "left behind in the target";
}

// The agent closes a control connection idle for 60 s (here 6 s). A diagnosis on a slow
// NAS leaves its sites idle longer than that between their steps: each step's telemetry
// comes on a connection of its own, so none is lost to the idle close.
TEST(DiagnoseAgentIdleE2eTest, TelemetryOutlastsTheAgentsIdleClose) {
  TempDir dir;
  const std::string root = dir.Sub("root"), target = dir.Sub("target"), db = dir.Sub("results.db");
  ASSERT_EQ(::mkdir(root.c_str(), 0700), 0);
  ASSERT_EQ(::mkdir(target.c_str(), 0700), 0);
  const std::string token = MakeTokenFile(dir);
  // 6 s: longer than the agent site sits idle between its own steps (about 3 s, more under
  // ASan), shorter than the target site waits for its first step (about 11 s).
  ::setenv("NASPERF_TEST_AGENT_IDLE_MS", "6000", 1);
  RunningAgent agent = StartAgent(root, token);
  ::unsetenv("NASPERF_TEST_AGENT_IDLE_MS");
  ASSERT_NE(agent.port, 0) << agent.start_line;
  CliResult r = QuickDiagnosisThenStop(agent, token, target, db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(Contains(r.err, "no telemetry for this run")) << r.err;
  for (const json& run : StoredRuns(db))
    if (run["measured_on"] != "nas") EXPECT_TRUE(run["telemetry"].is_object()) << run["name"] << "\n" << r.err;
}

TEST_F(DiagnoseE2eTest, WithoutAgentSaysWhatWasNotMeasured) {
  CliResult r = RunNasperf(Quick({}), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "no agent: NAS disks, CPU and interrupts not measured")) << r.out;
  // --line states the line rate a shaped or virtual link's NIC cannot say.
  CliResult j = RunNasperf(Quick({"--json", "--line", "1g"}), 120);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  json doc;
  ASSERT_TRUE(ParseJson(j.out, &doc));
  ASSERT_TRUE(doc["not_measured"].is_array()) << doc.dump(2);
  EXPECT_NE(doc["not_measured"].dump().find("no agent: NAS disks, CPU and interrupts not measured"), std::string::npos)
      << doc.dump(2);
  EXPECT_EQ(doc["line_rate_mbps"], 1000) << doc.dump(2);
  EXPECT_EQ(doc["line_rate_source"], "stated") << doc.dump(2);
  EXPECT_TRUE(Contains(r.out, "quick plan, 4 steps")) << r.out;  // client and target, write and read
  EXPECT_EQ(StepLines(r.err).size(), 4u) << r.err;
  EXPECT_EQ(StoredRuns(db_).size(), 8u);  // both diagnoses' steps
  EXPECT_TRUE(NasperfFiles(target_).empty());
}

TEST_F(DiagnoseE2eTest, BadOptionsGetOneLineExitTwoAndNothingWritten) {
  const std::vector<std::vector<std::string>> bad = {
      {"--full"},            // with --quick
      {"--step-time", "0"},  // the last one counts
      {"--step-time", "soon"},
      {"--size", "lots"},
      {"--token-file", "/nonexistent"},  // without --agent
      {"--agent", "host:notaport"},
      {"--tag", "diagnosis=d1"},
      {"--line", "fast"},
      {"--line", "0"},
      {"--line", "1x"},
      {"--no-such-option"},
  };
  for (const std::vector<std::string>& extra : bad) {
    CliResult r = RunNasperf(Quick(extra));
    EXPECT_EQ(r.exit_code, 2) << Join(extra) << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << Join(extra) << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << Join(extra) << ": " << r.out;
    EXPECT_FALSE(DbExists()) << Join(extra);
  }
  EXPECT_TRUE(NasperfFiles(target_).empty());
}

TEST_F(DiagnoseE2eTest, AStepThatFailsMarksItPartialAndTheRestIsStillMeasured) {
  std::vector<std::string> args = WithAgent({});
  args[4] = "2";  // --step-time: long enough to stop the agent inside the first step
  BackgroundProcess p = StartNasperf(args);
  std::string err;
  ASSERT_TRUE(WaitForStderr(p, "step 2/", 20, &err)) << err;
  // The agent is gone for good (killed outright): its steps fail, the client's still run.
  agent_.process.Signal(SIGKILL);
  agent_.process.Finish(10);
  expect_clean_root_ = false;
  CliResult r = p.Finish(120);
  err += r.err;
  EXPECT_EQ(r.exit_code, 1) << err;
  EXPECT_TRUE(Contains(r.out, "(partial: step 3 (")) << r.out;
  EXPECT_TRUE(Contains(err, "nasperf: step 3 (")) << err;
  // The client's ceiling and the target's steps did not need the agent's disks.
  json runs = StoredRuns(db_);
  EXPECT_GE(runs.size(), 3u) << err;
  EXPECT_TRUE(NasperfFiles(target_).empty());
}

TEST_F(DiagnoseE2eTest, CtrlCStopsAtTheStepAndStoresWhatWasMeasured) {
  std::vector<std::string> args = Quick({});
  args[4] = "3";
  BackgroundProcess p = StartNasperf(args);
  std::string err;
  ASSERT_TRUE(WaitForStderr(p, "step 3/4", 30, &err)) << err;
  SleepSeconds(0.5);
  ASSERT_TRUE(p.Signal(SIGINT)) << "nasperf ended before Ctrl-C";
  CliResult r = p.Finish(30);
  err += r.err;
  EXPECT_EQ(r.exit_code, 130) << err;
  EXPECT_TRUE(Contains(r.out, "(partial: interrupted at step 3")) << r.out;
  EXPECT_FALSE(Contains(err, "step 4/4")) << err;
  EXPECT_EQ(StoredRuns(db_).size(), 3u) << err;  // the client's two, and the write cut short
  EXPECT_TRUE(NasperfFiles(target_).empty());
}

TEST_F(DiagnoseE2eTest, UnreachableAgentIsAClearErrorAndNothingWritten) {
  // A port nothing listens on: the agent's own port once it is stopped.
  agent_.process.Signal(SIGTERM);
  agent_.process.Finish(10);
  CliResult r = RunNasperf(WithAgent({}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, agent_.address())) << r.err;
  EXPECT_FALSE(DbExists());
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace nasperf::e2e

namespace nasperf::e2e {
namespace {

// The NAS's volume on a loop device the agent may read (--allow-volume-members): its
// member is read raw through the agent and is part of the evidence.
TEST(DiagnoseMembersE2eTest, TheVolumesMemberIsReadRawThroughTheAgent) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root to attach a loop device and mount it");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string backing = dir.Sub("disk.img");
  ASSERT_TRUE(WriteFileBytes(backing, std::string(64u << 20, '\0')));
  ScopedLoopDevice loop(backing);
  if (!loop.ok()) NASPERF_SKIP_OR_FAIL("cannot attach a loop device: " + loop.error());
  testing::ShellResult mkfs = testing::Shell("mkfs.ext4 -q -F " + loop.device());
  ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
  const std::string mnt = dir.Sub("mnt");
  ASSERT_EQ(::mkdir(mnt.c_str(), 0700), 0);
  ScopedMount mount(loop.device(), mnt, "ext4", 0, "");
  ASSERT_TRUE(mount.ok()) << mount.error();
  const std::string token = MakeTokenFile(dir);
  RunningAgent agent = StartAgent(mnt, token, {"--allow-volume-members"});
  ASSERT_NE(agent.port, 0) << agent.start_line;
  const std::string target = dir.Sub("target");
  ASSERT_EQ(::mkdir(target.c_str(), 0700), 0);
  const std::string db = dir.Sub("results.db");

  CliResult r = QuickDiagnosisThenStop(agent, token, target, db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "NAS disk " + loop.device() + " seq read 512K (qd 8)")) << r.err;
  EXPECT_FALSE(Contains(r.err, "did not let it be read")) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  Result<Diagnosis> d = DiagnosisFromJson(doc);
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d.value().evidence.members.size(), 1u) << doc.dump(2);
  const MemberEvidence& m = d.value().evidence.members[0];
  EXPECT_EQ(m.device, loop.device());
  ASSERT_TRUE(m.seq.read_mb_per_s) << doc.dump(2);
  EXPECT_GT(*m.seq.read_mb_per_s, 0);
  ASSERT_EQ(m.seq.run_ids.size(), 1u);
  json runs = StoredRuns(db);
  auto member_run =
      std::find_if(runs.begin(), runs.end(), [&](const json& run) { return run["id"] == m.seq.run_ids[0]; });
  ASSERT_NE(member_run, runs.end());
  EXPECT_EQ((*member_run)["measured_on"], "nas");
  EXPECT_FALSE((*member_run).contains("write")) << "a member is only read";
}

}  // namespace
}  // namespace nasperf::e2e
