// E2E tests of `nasperf agent` and `run/quick/sweep --on`: authentication, malformed frames,
// root confinement, remote jobs, telemetry with --agent, and bad options.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "wire/auth.h"
#include "agent_test_support.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

class AgentE2eTest : public AgentFixture {
 protected:
  // JobStart "check" for `dir` with a small write job; the agent's answer as a Status.
  Status StartJobIn(AgentConnection& conn, const std::string& dir) {
    json job = {{"rw", "write"}, {"bs", 65536}, {"qd", 1}, {"threads", 1}, {"size", 1 << 20}};
    Result<Frame> r = conn.Request(MessageType::kJobStart, {{"job", job}, {"dir", dir}, {"suite", "run"}, {"check", true}},
                                   MessageType::kJobDone, milliseconds(10000));
    return r.status();
  }
};

TEST_F(AgentE2eTest, StartLineNamesTheBoundPort) {
  EXPECT_NE(agent_.start_line.find("listening on 127.0.0.1:" + std::to_string(agent_.port)), std::string::npos);
}

TEST_F(AgentE2eTest, AuthenticatedInventoryGetWorks) {
  Result<AgentConnection> conn = ConnectControl(agent_.port);
  ASSERT_TRUE(conn.ok()) << conn.status().message();
  Result<Frame> inv = conn.value().Request(MessageType::kInventoryGet, json::object(), MessageType::kInventory,
                                           milliseconds(10000));
  ASSERT_TRUE(inv.ok()) << inv.status().message();
  const json& i = inv.value().payload["inventory"];
  EXPECT_TRUE(i.contains("host")) << i.dump(2);
  EXPECT_TRUE(i.contains("target")) << i.dump(2);
  Result<Frame> pong = conn.value().Request(MessageType::kPing, json::object(), MessageType::kPong, milliseconds(5000));
  EXPECT_TRUE(pong.ok()) << pong.status().message();
}

TEST_F(AgentE2eTest, WrongTokenGetsErrorAuthAndNothingElse) {
  Result<AgentConnection> conn = ConnectControl(agent_.port, "not-the-right-token-at-all");
  ASSERT_FALSE(conn.ok());
  EXPECT_NE(conn.status().message().find("auth"), std::string::npos) << conn.status().message();

  // By hand: Hello, Challenge, a bogus Auth → exactly one Error "auth", then the close.
  Result<ScopedFd> fd = ConnectTcp("agent", "127.0.0.1", agent_.port, milliseconds(5000));
  ASSERT_TRUE(fd.ok());
  std::string nonce = RandomHex(kNonceBytes).value();
  ASSERT_TRUE(SendRaw(fd.value().get(), EncodeFrame(MessageType::kHello, {{"role", "control"}, {"client_nonce", nonce}}).value()));
  FrameDecoder decoder;
  ReadOutcome challenge = ReadFrame(fd.value().get(), decoder, std::chrono::steady_clock::now() + std::chrono::seconds(5));
  ASSERT_EQ(challenge.end, ReadEnd::kFrame);
  ASSERT_EQ(challenge.frame.type, MessageType::kChallenge);
  ASSERT_TRUE(SendRaw(fd.value().get(), EncodeFrame(MessageType::kAuth, {{"mac", std::string(64, '0')}}).value() +
                                            EncodeFrame(MessageType::kInventoryGet, json::object()).value()));
  bool closed = false;
  std::vector<Frame> frames = FramesUntilClose(fd.value().get(), 5, &closed);
  EXPECT_TRUE(closed);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].type, MessageType::kError);
  EXPECT_EQ(frames[0].payload["code"], "auth");
}

TEST_F(AgentE2eTest, UnauthenticatedJobStartIsRefused) {
  Result<ScopedFd> fd = ConnectTcp("agent", "127.0.0.1", agent_.port, milliseconds(5000));
  ASSERT_TRUE(fd.ok());
  json job = {{"rw", "write"}, {"bs", 65536}, {"qd", 1}, {"threads", 1}, {"size", 1 << 20}};
  ASSERT_TRUE(SendRaw(fd.value().get(), EncodeFrame(MessageType::kJobStart, {{"job", job}, {"dir", "."}}).value()));
  bool closed = false;
  std::vector<Frame> frames = FramesUntilClose(fd.value().get(), 5, &closed);
  EXPECT_TRUE(closed);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].payload["code"], "auth");
  EXPECT_TRUE(DirEntries(root_).empty()) << "an unauthenticated job wrote something";
}

TEST_F(AgentE2eTest, SilentConnectionIsDroppedAfterTheAuthTimeout) {
  Result<ScopedFd> fd = ConnectTcp("agent", "127.0.0.1", agent_.port, milliseconds(5000));
  ASSERT_TRUE(fd.ok());
  auto start = std::chrono::steady_clock::now();
  bool closed = false;
  std::vector<Frame> frames = FramesUntilClose(fd.value().get(), 10, &closed);
  double waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(closed);
  EXPECT_GT(waited_s, 4.0);
  EXPECT_LT(waited_s, 7.0);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].payload["code"], "auth");
}

TEST_F(AgentE2eTest, OversizedAndGarbageFramesDropOnlyThatConnection) {
  Result<AgentConnection> good = ConnectControl(agent_.port);
  ASSERT_TRUE(good.ok()) << good.status().message();

  // An authenticated connection announcing a 2 MiB payload.
  Result<AgentConnection> big = ConnectControl(agent_.port);
  ASSERT_TRUE(big.ok());
  ScopedFd big_fd = big.value().ReleaseFd();
  std::string header = EncodeFrame(MessageType::kPing, json::object()).value().substr(0, 16);
  header[8] = 0, header[9] = 0x20, header[10] = 0, header[11] = 0;  // length 2 MiB
  ASSERT_TRUE(SendRaw(big_fd.get(), header));
  bool closed = false;
  std::vector<Frame> frames = FramesUntilClose(big_fd.get(), 5, &closed);
  EXPECT_TRUE(closed) << "the agent kept a connection that sent an oversized frame";
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].payload["code"], "protocol");
  EXPECT_NE(frames[0].payload["message"].get<std::string>().find("limit"), std::string::npos);

  // Garbage after authentication, and garbage instead of a Hello.
  Result<AgentConnection> junk = ConnectControl(agent_.port);
  ASSERT_TRUE(junk.ok());
  ScopedFd junk_fd = junk.value().ReleaseFd();
  ASSERT_TRUE(SendRaw(junk_fd.get(), "\x01\x02garbage bytes that are no frame at all"));
  FramesUntilClose(junk_fd.get(), 5, &closed);
  EXPECT_TRUE(closed);
  Result<ScopedFd> raw = ConnectTcp("agent", "127.0.0.1", agent_.port, milliseconds(5000));
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(SendRaw(raw.value().get(), "GET / HTTP/1.0\r\n\r\n"));
  FramesUntilClose(raw.value().get(), 5, &closed);
  EXPECT_TRUE(closed);
  // An unknown type after authentication.
  Result<AgentConnection> unknown = ConnectControl(agent_.port);
  ASSERT_TRUE(unknown.ok());
  ScopedFd unknown_fd = unknown.value().ReleaseFd();
  header[6] = 0, header[7] = 99, header[8] = 0, header[9] = 0, header[10] = 0, header[11] = 2;
  ASSERT_TRUE(SendRaw(unknown_fd.get(), header + "{}"));
  frames = FramesUntilClose(unknown_fd.get(), 5, &closed);
  EXPECT_TRUE(closed);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_NE(frames[0].payload["message"].get<std::string>().find("unknown message type 99"), std::string::npos);

  // The first client never noticed.
  Result<Frame> inv = good.value().Request(MessageType::kInventoryGet, json::object(), MessageType::kInventory,
                                           milliseconds(10000));
  EXPECT_TRUE(inv.ok()) << inv.status().message();
}

TEST_F(AgentE2eTest, PathEscapesAreRefused) {
  TempDir outside;
  ASSERT_EQ(::symlink(outside.path().c_str(), (root_ + "/out").c_str()), 0);
  ASSERT_EQ(::mkdir((root_ + "/in").c_str(), 0700), 0);
  Result<AgentConnection> conn = ConnectControl(agent_.port);
  ASSERT_TRUE(conn.ok());
  for (const char* dir : {"../x", "/etc", "out", "in/../..", "in/../../x"}) {
    Status s = StartJobIn(conn.value(), dir);
    ASSERT_FALSE(s.ok()) << dir;
    EXPECT_EQ(s.kind(), ErrorKind::kBadInput) << dir << ": " << s.message();
    EXPECT_NE(s.message().find(": path: "), std::string::npos) << dir << ": " << s.message();
  }
  EXPECT_TRUE(DirEntries(outside.path()).empty());
  // The connection is still usable after refused requests, and "in" is fine.
  EXPECT_TRUE(StartJobIn(conn.value(), "in").ok());
}

TEST_F(AgentE2eTest, RunOnAgentMeasuresOnTheNas) {
  CliResult r = RunNasperf({"run", "--on", agent_.address(), "--rw", "write", "--size", "16m", "--token-file",
                            token_file_, "--no-store", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& run = doc["runs"][0];
  EXPECT_EQ(run["partial"], false);
  EXPECT_TRUE(HasConsistentFigures(run));
  EXPECT_EQ(TotalBytes(run), 16u << 20);
  EXPECT_EQ(run.value("measured_on", ""), "nas") << "RunToJson does not write measured_on yet?";
  EXPECT_TRUE(run["inventory"]["target"].is_object());
  EXPECT_TRUE(NasperfFiles(root_).empty());
}

TEST_F(AgentE2eTest, RunOnAgentTableAndStoredRun) {
  std::string db = dir_.Sub("results.sqlite");
  ASSERT_EQ(::mkdir((root_ + "/sub").c_str(), 0700), 0);
  CliResult r = RunNasperf({"run", "sub", "--on", agent_.address(), "--rw", "read", "--size", "8m", "--token-file",
                            token_file_, "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("MB/s"), std::string::npos) << r.out;
  json runs = StoredRuns(db);
  ASSERT_EQ(runs.size(), 1u) << runs.dump(2);
  EXPECT_EQ(runs[0]["partial"], false);
  EXPECT_NE(runs[0]["target"].get<std::string>().find(":sub"), std::string::npos);
  EXPECT_TRUE(NasperfFiles(root_ + "/sub").empty());
}

TEST_F(AgentE2eTest, QuickOnAgentRunsEightTests) {
  CliResult r = RunNasperf({"quick", "--on", agent_.address(), "--size", "1m", "--repeat", "1", "--time", "1s",
                            "--token-file", token_file_, "--no-store", "--json"},
                           120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_EQ(doc["runs"].size(), 8u);
  for (const json& run : doc["runs"]) {
    EXPECT_EQ(run["partial"], false);
    EXPECT_TRUE(run.contains("test"));
  }
}

// quick --on: the suite's loop runs each test on the agent; its table and the store are
// as for a local quick.
TEST_F(AgentE2eTest, QuickOnAgentTableAndStoredRuns) {
  std::string db = dir_.Sub("results.sqlite");
  CliResult r = RunNasperf({"quick", "--on", agent_.address(), "--size", "1m", "--repeat", "1", "--time", "1s",
                            "--token-file", token_file_, "--db", db},
                           120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("RND4K Q32T1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stored as runs"), std::string::npos) << r.out;
  json runs = StoredRuns(db);
  ASSERT_EQ(runs.size(), 8u);
  for (const json& run : runs) EXPECT_EQ(run["partial"], false);
  EXPECT_TRUE(NasperfFiles(root_).empty());
}

// sweep --on: the agent runs the whole sweep on its directory (its file lives across the
// points); each point comes back as a run, stored and printed here with the summary.
TEST_F(AgentE2eTest, SweepOnAgentRunsEveryPointThere) {
  ASSERT_EQ(::mkdir((root_ + "/sw").c_str(), 0700), 0);
  std::string db = dir_.Sub("results.sqlite");
  CliResult r = RunNasperf({"sweep", "sw", "--on", agent_.address(), "--min", "64k", "--max", "256k", "--record", "64k",
                            "--tests", "write,read", "--token-file", token_file_, "--db", db, "--json"},
                           120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc)) << r.out;
  ASSERT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(doc["runs"].size(), 6u) << r.out;  // 64k, 128k, 256k x write, read
  for (const json& run : doc["runs"]) {
    EXPECT_EQ(run["partial"], false);
    EXPECT_EQ(run.value("measured_on", ""), "nas");
    EXPECT_TRUE(run["cached"].is_boolean()) << run.dump();
    EXPECT_NE(run["target"].get<std::string>().find(":sw"), std::string::npos);
  }
  EXPECT_EQ(doc["runs"][1]["test"], "read");
  EXPECT_EQ(doc["runs"][1]["job"]["size"], 65536);
  ASSERT_TRUE(doc["sweep"].is_object());
  EXPECT_EQ(doc["sweep"]["partial"], false);
  EXPECT_EQ(doc["sweep"]["curves"].size(), 2u);
  EXPECT_NE(doc["sweep"]["target"].get<std::string>().find(":sw"), std::string::npos);
  EXPECT_GT(doc["sweep"]["id"].get<int64_t>(), 0);
  EXPECT_EQ(StoredRuns(db).size(), 6u);
  EXPECT_TRUE(NasperfFiles(root_ + "/sw").empty());
}

TEST_F(AgentE2eTest, SweepOnAgentTableAndBadPlanWritesNothing) {
  CliResult r = RunNasperf({"sweep", "--on", agent_.address(), "--min", "64k", "--max", "128k", "--tests", "write,read,reread",
                            "--token-file", token_file_, "--no-store"},
                           120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("reread"), std::string::npos) << r.out;
  // A plan the agent refuses (min above max) is one line, exit 2, nothing stored or left.
  std::string db = dir_.Sub("bad.sqlite");
  CliResult bad = RunNasperf({"sweep", "--on", agent_.address(), "--min", "1m", "--max", "64k", "--token-file",
                              token_file_, "--db", db});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(::access(db.c_str(), F_OK), 0);
  EXPECT_TRUE(NasperfFiles(root_).empty());
}

TEST_F(AgentE2eTest, LocalRunWithAgentTelemetry) {
  TempDir local;
  CliResult r = RunNasperf({"run", local.path(), "--agent", agent_.address(), "--rw", "write", "--size", "8m",
                            "--time", "2", "--token-file", token_file_, "--no-store", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  const json& run = doc["runs"][0];
  EXPECT_EQ(run.value("measured_on", "client"), "client");
  ASSERT_TRUE(run.contains("telemetry")) << "RunToJson does not write telemetry yet?";
  EXPECT_TRUE(run["telemetry"]["samples"].is_array());
  EXPECT_GE(run["telemetry"]["samples"].size(), 1u);
}

TEST_F(AgentE2eTest, TokenFromTheEnvironment) {
  ::setenv("NASPERF_TOKEN", kTestToken, 1);
  CliResult r = RunNasperf({"run", "--on", agent_.address(), "--rw", "write", "--size", "4m", "--no-store", "--json"});
  ::unsetenv("NASPERF_TOKEN");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Bad options: exit 2 and one line on stderr, before anything runs.
void ExpectBadInput(const std::vector<std::string>& args, const std::string& needle) {
  CliResult r = RunNasperf(args, 20);
  EXPECT_EQ(r.exit_code, 2) << Join(args) << "\n" << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << Join(args) << "\n" << r.err;
  EXPECT_TRUE(Contains(r.err, needle)) << Join(args) << "\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(AgentBadInputTest, ClientOptions) {
  TempDir dir;
  std::string token = MakeTokenFile(dir);
  ExpectBadInput({"run", "--on", "no such host!", "--token-file", token, "--no-store"}, "--on");
  ExpectBadInput({"run", "--on", "127.0.0.1:99999", "--token-file", token, "--no-store"}, "port");
  ExpectBadInput({"quick", "--on", "[::1", "--token-file", token, "--no-store"}, "--on");
  ExpectBadInput({"run", "--on", "127.0.0.1:1", "--agent", "127.0.0.1:1", "--no-store"}, "--agent");
  ExpectBadInput({"run", "--on", "127.0.0.1:1", "--token-file", dir.Sub("missing"), "--no-store"}, "token file");
  ::chmod(token.c_str(), 0644);
  ExpectBadInput({"run", "--on", "127.0.0.1:1", "--token-file", token, "--no-store"}, "mode 0644");
}

TEST(AgentBadInputTest, AgentOptions) {
  TempDir dir;
  std::string token = MakeTokenFile(dir, 0644);
  ExpectBadInput({"agent", "--listen", "127.0.0.1:0", "--root", dir.path(), "--token-file", token}, "mode 0644");
  ExpectBadInput({"agent", "--listen", "127.0.0.1:0", "--root", dir.path()}, "no token");
  ExpectBadInput({"agent", "--listen", "0.0.0.0:0", "--root", dir.path(), "--insecure"}, "loopback");
  ExpectBadInput({"agent", "--listen", "127.0.0.1:x", "--root", dir.path(), "--insecure"}, "--listen");
  ExpectBadInput({"agent", "--listen", "127.0.0.1:0", "--root", dir.Sub("none"), "--insecure"}, "--root");
  std::string short_token = dir.Sub("short");
  WriteFileBytes(short_token, "short\n");
  ::chmod(short_token.c_str(), 0600);
  ExpectBadInput({"agent", "--listen", "127.0.0.1:0", "--root", dir.path(), "--token-file", short_token}, "at least 16");
}

TEST(AgentBadInputTest, UnreachableAgentIsExitOneWithinSeconds) {
  TempDir dir;
  std::string token = MakeTokenFile(dir);
  CliResult r = RunNasperf({"run", "--on", "127.0.0.1:1", "--token-file", token, "--no-store"}, 20);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_LT(r.elapsed_s, 6);
}

}  // namespace
}  // namespace nasperf::e2e
