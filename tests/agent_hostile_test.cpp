// E2E tests of `nasperf agent` against a client that holds the token and means harm:
// symlinks inside --root (static and swapped in mid-request) and frames nested deep
// enough to exhaust a recursive JSON walk. Issue 14, items 3 and 4.
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "wire/auth.h"
#include "agent_test_support.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

const json kSmallWriteJob = {{"rw", "write"}, {"bs", 65536}, {"qd", 1}, {"threads", 1}, {"size", 1 << 20}};

// A frame built byte by byte, for bodies that nlohmann would need to recurse to write.
std::string RawFrame(MessageType type, const std::string& body) {
  std::string header = EncodeFrame(type, json::object()).value().substr(0, kHeaderBytes);
  const uint32_t n = static_cast<uint32_t>(body.size());
  for (int i = 0; i < 4; ++i) header[8 + i] = static_cast<char>(n >> (24 - 8 * i));
  return header + body;
}

// `levels` nested arrays: [[[...]]].
std::string Nested(size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

class AgentHostileTest : public AgentFixture {
 protected:
  // JobStart "check" (a probe file is created and removed in `dir`); the answer as a Status.
  Status CheckIn(AgentConnection& conn, const std::string& dir) {
    Result<Frame> r =
        conn.Request(MessageType::kJobStart, {{"job", kSmallWriteJob}, {"dir", dir}, {"suite", "run"}, {"check", true}},
                     MessageType::kJobDone, milliseconds(10000));
    return r.status();
  }
  // A real one-pass 64 KiB write job in `dir`; its end (JobDone or Error) as a Status.
  Status RunIn(AgentConnection& conn, const std::string& dir) {
    json job = {{"rw", "write"}, {"bs", 65536}, {"qd", 1}, {"threads", 1}, {"size", 65536}};
    if (Status s = conn.Send(MessageType::kJobStart, {{"job", job}, {"dir", dir}, {"suite", "run"}}); !s.ok()) return s;
    while (true) {
      Result<Frame> f = conn.Receive(milliseconds(20000));
      if (!f.ok() || f.value().type == MessageType::kJobDone) return f.status();
    }
  }
};

TEST_F(AgentHostileTest, SymlinkedDirectoryComponentIsRefusedEvenInsideTheRoot) {
  ASSERT_EQ(::mkdir((root_ + "/in").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((root_ + "/in/deeper").c_str(), 0700), 0);
  ASSERT_EQ(::symlink("in", (root_ + "/link").c_str()), 0);
  Result<AgentConnection> conn = ConnectControl(agent_.port);
  ASSERT_TRUE(conn.ok()) << conn.status().message();
  for (const char* dir : {"link", "link/deeper", "./link/"}) {
    Status s = CheckIn(conn.value(), dir);
    ASSERT_FALSE(s.ok()) << dir << " was accepted through a symlink";
    EXPECT_EQ(s.kind(), ErrorKind::kBadInput) << dir << ": " << s.message();
    EXPECT_NE(s.message().find(": path: "), std::string::npos) << dir << ": " << s.message();
  }
  EXPECT_TRUE(CheckIn(conn.value(), "in/deeper").ok());
}

// A client swaps a directory of the root for a symlink to outside it, over and over,
// while asking for jobs beneath it. Each JobStart "check" creates a probe file where the
// agent resolved the directory; none may ever be created outside the root, not even for
// the moment between its create and its unlink (inotify sees that moment).
TEST_F(AgentHostileTest, SwappingADirectoryForASymlinkNeverEscapesTheRoot) {
  TempDir outside;
  ASSERT_TRUE(outside.ok());
  ASSERT_EQ(::mkdir(outside.Sub("b").c_str(), 0700), 0);
  // This agent's root sits 500 directories deep: the client's path ("a/b") is short, but
  // an agent that opens by absolute path walks all 500 before it reaches "a" again, so
  // the race window of check-then-open-by-path is wide enough to hit on most runs.
  std::string made = root_;
  for (int i = 0; i < 500; ++i) ASSERT_EQ(::mkdir((made += "/d").c_str(), 0700), 0);
  RunningAgent deep = StartAgent(made, token_file_);
  ASSERT_NE(deep.port, 0) << deep.start_line;
  ScopedFd parent(::open(made.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  ASSERT_TRUE(parent.valid());
  ASSERT_EQ(::mkdirat(parent.get(), "a", 0700), 0);
  ASSERT_EQ(::mkdirat(parent.get(), "a/b", 0700), 0);
  ASSERT_EQ(::symlinkat(outside.path().c_str(), parent.get(), "alt"), 0);
  ScopedFd watch(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  ASSERT_TRUE(watch.valid());
  ASSERT_GE(::inotify_add_watch(watch.get(), outside.Sub("b").c_str(), IN_CREATE | IN_MOVED_TO), 0);

  Result<AgentConnection> conn = ConnectControl(deep.port);
  ASSERT_TRUE(conn.ok()) << conn.status().message();
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> swaps{0};
  std::thread swapper([&] {
    // "a" is the real directory, then the symlink, then the directory again ...
    while (!stop.load())
      if (::renameat2(parent.get(), "a", parent.get(), "alt", RENAME_EXCHANGE) == 0) swaps.fetch_add(1);
  });
  // Requests start once the swapper runs (on a loaded machine it may wait for a core).
  while (swaps.load() < 1000) std::this_thread::yield();
  int accepted = 0, refused = 0;
  for (int i = 0; i < 2000; ++i) {
    Status s = CheckIn(conn.value(), "a/b");
    if (s.ok())
      ++accepted;
    else if (s.kind() == ErrorKind::kBadInput)
      ++refused;
    else
      ADD_FAILURE() << "try " << i << ": " << s.message();
    if (!s.ok() && s.kind() != ErrorKind::kBadInput) break;
  }
  stop.store(true);
  swapper.join();

  // Then the swap at a known moment: a real job's Check creates its probe file in the
  // directory the agent resolved (seen by inotify on that directory), and only then is
  // "a" swapped for the symlink; the job's data file is created milliseconds later.
  auto exchange = [&] { return ::renameat2(parent.get(), "a", parent.get(), "alt", RENAME_EXCHANGE) == 0; };
  struct stat st {};
  ASSERT_EQ(::fstatat(parent.get(), "a", &st, AT_SYMLINK_NOFOLLOW), 0);
  if (!S_ISDIR(st.st_mode)) ASSERT_TRUE(exchange());
  ScopedFd real_watch(::inotify_init1(IN_CLOEXEC));
  ASSERT_TRUE(real_watch.valid());
  ASSERT_GE(::inotify_add_watch(real_watch.get(), (made + "/a/b").c_str(), IN_CREATE), 0);  // follows the inode
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        conn.value().Send(MessageType::kJobStart, {{"job", kSmallWriteJob}, {"dir", "a/b"}, {"suite", "run"}}).ok());
    pollfd p{real_watch.get(), POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 10000), 1) << "try " << i << ": the job created nothing where it was resolved";
    char drain[4096];
    ASSERT_GT(::read(real_watch.get(), drain, sizeof drain), 0);
    ASSERT_TRUE(exchange());  // "a" is now the symlink to outside
    while (true) {
      Result<Frame> f = conn.value().Receive(milliseconds(20000));
      if (!f.ok() || f.value().type == MessageType::kJobDone) break;  // an Error ends it too
    }
    ASSERT_TRUE(exchange());  // and the directory again
    // The job's own file events are drained, so the next try waits for its own probe.
    p = pollfd{real_watch.get(), POLLIN, 0};
    while (::poll(&p, 1, 0) == 1 && ::read(real_watch.get(), drain, sizeof drain) > 0) {
    }
  }

  deep.process.Signal(SIGTERM);
  EXPECT_EQ(deep.process.Finish(10).exit_code, 0);

  char events[4096];
  ssize_t n = ::read(watch.get(), events, sizeof events);
  std::string created;
  for (ssize_t at = 0; n > 0 && at < n;) {
    auto* e = reinterpret_cast<const inotify_event*>(events + at);
    created += std::string(e->len ? e->name : "?") + " ";
    at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
  }
  EXPECT_LE(n, 0) << "files were created outside --root: " << created << "(" << accepted << " accepted, " << refused
                  << " refused)";
  EXPECT_TRUE(DirEntries(outside.Sub("b")).empty());
  EXPECT_GT(accepted, 0) << "the race was never run: every request was refused";
  EXPECT_GT(swaps.load(), 1000u);
  // Whichever way round the swapper stopped, the real directory holds nothing either.
  EXPECT_TRUE(NasperfFiles(made + "/a/b").empty() && NasperfFiles(made + "/alt/b").empty());
}

// Client A runs a job; client B, authenticated, sends a JobStart whose "suite", "dir" or
// "name" is nested 100,000 deep (200 KB, under the 1 MiB limit). B gets an Error and is
// closed; A's job completes; the agent serves on; nothing is left in the root.
TEST_F(AgentHostileTest, DeeplyNestedFrameGetsAnErrorWhileAnotherClientsJobCompletes) {
  Result<AgentConnection> a = ConnectControl(agent_.port);
  ASSERT_TRUE(a.ok()) << a.status().message();
  json job = {{"rw", "write"},   {"bs", 65536}, {"qd", 1},           {"threads", 1},
              {"size", 8 << 20}, {"time_s", 3}, {"time_based", true}};
  ASSERT_TRUE(a.value().Send(MessageType::kJobStart, {{"job", job}, {"dir", "."}, {"suite", "run"}}).ok());
  ASSERT_NE(WaitForNasperfFile(root_, 10), "") << "client A's job created no file";

  for (const char* field : {"suite", "dir", "name"}) {
    Result<AgentConnection> b = ConnectControl(agent_.port);
    ASSERT_TRUE(b.ok()) << field << ": " << b.status().message();
    std::string body = "{\"job\":" + kSmallWriteJob.dump() + ",\"" + field + "\":" + Nested(100000) + "}";
    ASSERT_LT(body.size(), kMaxPayload);
    ScopedFd b_fd = b.value().ReleaseFd();
    ASSERT_TRUE(SendRaw(b_fd.get(), RawFrame(MessageType::kJobStart, body))) << field;
    bool closed = false;
    std::vector<Frame> frames = FramesUntilClose(b_fd.get(), 10, &closed);
    EXPECT_TRUE(closed) << field << ": the agent kept the connection";
    ASSERT_EQ(frames.size(), 1u) << field << ": no Error reply (did the agent die?)";
    EXPECT_EQ(frames[0].type, MessageType::kError) << field;
    EXPECT_NE(frames[0].payload.value("message", "").find("deep"), std::string::npos) << frames[0].payload.dump();
    ASSERT_TRUE(agent_.process.running()) << field << ": the agent died";
  }

  // A's job runs to its end and reports.
  bool done = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done && std::chrono::steady_clock::now() < deadline) {
    Result<Frame> f = a.value().Receive(milliseconds(10000));
    ASSERT_TRUE(f.ok()) << "client A: " << f.status().message();
    if (f.value().type != MessageType::kJobDone) continue;  // samples and pings
    done = true;
    EXPECT_FALSE(f.value().payload.contains("error")) << f.value().payload.dump();
    ASSERT_EQ(f.value().payload["runs"].size(), 1u);
    EXPECT_GT(f.value().payload["runs"][0]["write"]["bytes"].get<uint64_t>(), 0u);
  }
  EXPECT_TRUE(done) << "client A's job never finished";
  EXPECT_TRUE(NasperfFiles(root_).empty()) << "left behind after the job";
  // The agent serves new clients.
  Result<AgentConnection> c = ConnectControl(agent_.port);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c.value().Request(MessageType::kPing, json::object(), MessageType::kPong, milliseconds(5000)).ok());
}

// Fields of the wrong type (each used to throw nlohmann::type_error on the connection's
// thread, which ends the process) get Error bad_request and a close; the agent lives.
TEST_F(AgentHostileTest, WrongTypedFieldsGetAnErrorAndTheAgentServesOn) {
  for (const json& start : {json{{"job", kSmallWriteJob}, {"check", "yes"}},
                            json{{"job", kSmallWriteJob}, {"direct_fallback", 1}, {"check", true}},
                            json{{"job", kSmallWriteJob}, {"dir", json::object()}, {"check", true}},
                            json{{"job", {{"rw", 5}, {"bs", 4096}, {"qd", 1}, {"threads", 1}, {"size", 4096}}}}}) {
    Result<AgentConnection> b = ConnectControl(agent_.port);
    ASSERT_TRUE(b.ok()) << start.dump() << ": " << b.status().message();
    ASSERT_TRUE(b.value().Send(MessageType::kJobStart, start).ok());
    ScopedFd b_fd = b.value().ReleaseFd();
    bool closed = false;
    std::vector<Frame> frames = FramesUntilClose(b_fd.get(), 10, &closed);
    EXPECT_TRUE(closed) << start.dump();
    ASSERT_EQ(frames.size(), 1u) << start.dump() << ": no Error reply (did the agent die?)";
    EXPECT_EQ(frames[0].payload.value("code", ""), "bad_request") << frames[0].payload.dump();
    ASSERT_TRUE(agent_.process.running()) << start.dump() << ": the agent died";
  }
  EXPECT_TRUE(DirEntries(root_).empty()) << "a refused request wrote something";
}

}  // namespace
}  // namespace nasperf::e2e
