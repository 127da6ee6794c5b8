// Helpers for the agent e2e and fault tests: a `nasperf agent` child on 127.0.0.1 port 0
// (so tests run in parallel), token files, and raw protocol connections.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "wire/agent_client.h"
#include "wire/frame_socket.h"
#include "base/tcp_connect.h"
#include "cli_harness.h"

namespace nasperf::e2e {

inline constexpr const char* kTestToken = "e2e-token-0123456789abcdef";

// A token file with `mode` in `dir`.
inline std::string MakeTokenFile(const TempDir& dir, mode_t mode = 0600, const std::string& token = kTestToken) {
  std::string path = dir.Sub("token");
  WriteFileBytes(path, token + "\n");
  ::chmod(path.c_str(), mode);
  return path;
}

inline void SleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// A running agent and the port it printed.
struct RunningAgent {
  BackgroundProcess process;
  uint16_t port = 0;
  std::string start_line;
  std::string address() const { return "127.0.0.1:" + std::to_string(port); }
};

// Starts `nasperf agent --listen 127.0.0.1:0 --root ROOT --token-file TOKEN` and reads its
// start line ("... listening on 127.0.0.1:PORT, ..."); port 0 when it did not come within 10 s.
// `extra` options follow (--allow-device DEV ...).
inline RunningAgent StartAgent(const std::string& root, const std::string& token_file,
                               const std::vector<std::string>& extra = {}) {
  RunningAgent agent;
  std::vector<std::string> args = {"agent", "--listen", "127.0.0.1:0", "--root", root, "--token-file", token_file};
  args.insert(args.end(), extra.begin(), extra.end());
  agent.process = StartNasperf(args);
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{agent.process.stdout_fd(), POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char c;
    if (::read(agent.process.stdout_fd(), &c, 1) != 1) break;
    line += c;
  }
  agent.start_line = line;
  const std::string marker = "listening on 127.0.0.1:";
  size_t at = line.find(marker);
  if (at != std::string::npos) agent.port = static_cast<uint16_t>(std::stoi(line.substr(at + marker.size())));
  return agent;
}

inline AgentAddress Loopback(uint16_t port) { return AgentAddress{"127.0.0.1", port}; }

inline Result<AgentConnection> ConnectControl(uint16_t port, const std::string& token = kTestToken) {
  return AgentConnection::Connect(Loopback(port), token, "control", std::chrono::milliseconds(5000));
}

// Every frame the agent sends on `fd` until it closes the connection (or `timeout_s`);
// `closed` says whether it did close.
inline std::vector<Frame> FramesUntilClose(int fd, double timeout_s, bool* closed) {
  std::vector<Frame> frames;
  FrameDecoder decoder;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(timeout_s * 1000));
  *closed = false;
  while (true) {
    ReadOutcome got = ReadFrame(fd, decoder, deadline);
    if (got.end == ReadEnd::kFrame) {
      frames.push_back(got.frame);
      continue;
    }
    *closed = got.end == ReadEnd::kClosed;
    return frames;
  }
}

inline bool SendRaw(int fd, const std::string& bytes) {
  return SendAll(fd, bytes, std::chrono::steady_clock::now() + std::chrono::seconds(5)).ok();
}

// The stored runs of a results database, via `nasperf results list --json`.
inline nlohmann::json StoredRuns(const std::string& db) {
  CliResult r = RunNasperf({"results", "list", "--db", db, "--json"});
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  if (doc.is_discarded() || !doc.contains("runs")) return nlohmann::json::array();
  return doc["runs"];
}

// A fresh root directory, a 0600 token file and an agent serving them on a free
// loopback port, for every test of a fixture derived from it.
class AgentFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    root_ = dir_.Sub("root");
    ASSERT_EQ(::mkdir(root_.c_str(), 0700), 0);
    token_file_ = MakeTokenFile(dir_);
    agent_ = StartAgent(root_, token_file_);
    ASSERT_NE(agent_.port, 0) << "no start line from the agent: '" << agent_.start_line << "'";
  }
  // A running agent ends cleanly on SIGTERM, and leaves nothing in its root (unless the
  // test killed it outright: then its files stay, as a SIGKILL leaves them).
  void TearDown() override {
    if (agent_.process.running()) {
      agent_.process.Signal(SIGTERM);
      CliResult r = agent_.process.Finish(10);
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    if (expect_clean_root_) EXPECT_TRUE(NasperfFiles(root_).empty()) << "left behind in the root";
  }
  bool expect_clean_root_ = true;
  TempDir dir_;
  std::string root_;
  std::string token_file_;
  RunningAgent agent_;
};

}  // namespace nasperf::e2e
