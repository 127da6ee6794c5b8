// Fault test of `nasperf net` across a veth pair between two network namespaces
// (198.18.0.0/15): the link is cut mid-test and the client must end within 5 s with a
// partial run. Needs root; under CI=true a missing capability fails instead of skipping.
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

const char* IpBinary() { return ::access("/usr/sbin/ip", X_OK) == 0 ? "/usr/sbin/ip" : "/sbin/ip"; }

CliResult Ip(const std::vector<std::string>& args) { return RunProgram(IpBinary(), args, 20); }

// Two namespaces joined by a veth pair: client 198.18.0.1/24, NAS 198.18.0.2/24. Names are
// unique per process; the destructor deletes both namespaces (which removes the pair),
// also when the test failed half-way.
class NamespacePair {
 public:
  NamespacePair() {
    const std::string id = std::to_string(::getpid());
    client_ns = "npt-" + id + "-c";
    nas_ns = "npt-" + id + "-n";
    client_if = "npv" + id + "c";
    nas_if = "npv" + id + "n";
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"netns", "add", client_ns},
             {"netns", "add", nas_ns},
             {"link", "add", client_if, "type", "veth", "peer", "name", nas_if},
             {"link", "set", client_if, "netns", client_ns},
             {"link", "set", nas_if, "netns", nas_ns},
             {"-n", client_ns, "addr", "add", "198.18.0.1/24", "dev", client_if},
             {"-n", nas_ns, "addr", "add", "198.18.0.2/24", "dev", nas_if},
             {"-n", client_ns, "link", "set", "lo", "up"},
             {"-n", nas_ns, "link", "set", "lo", "up"},
             {"-n", client_ns, "link", "set", client_if, "up"},
             {"-n", nas_ns, "link", "set", nas_if, "up"}}) {
      CliResult r = Ip(args);
      if (r.exit_code != 0) {
        error = "ip " + Join(args) + ": " + r.err;
        return;
      }
    }
  }
  ~NamespacePair() {
    Ip({"netns", "del", client_ns});
    Ip({"netns", "del", nas_ns});
  }
  bool ok() const { return error.empty(); }

  std::string client_ns, nas_ns, client_if, nas_if, error;
};

std::string FirstLine(BackgroundProcess& p, double timeout_s) {
  std::string line;
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < end) {
    pollfd pfd{p.stdout_fd(), POLLIN, 0};
    if (::poll(&pfd, 1, 100) <= 0) continue;
    char c;
    if (::read(p.stdout_fd(), &c, 1) != 1) break;
    if (c == '\n') return line;
    line += c;
  }
  return line;
}

TEST(NetFault, LinkCutMidTestEndsTheClientWithinFiveSeconds) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root for network namespaces");
  for (const std::string dir : {"up", "down"}) {
    SCOPED_TRACE(dir);
    NamespacePair lab;
    if (!lab.ok()) NASPERF_SKIP_OR_FAIL("cannot make network namespaces: " + lab.error);
    TempDir tmp;
    const std::string token = tmp.Sub("token");
    ASSERT_TRUE(WriteFileBytes(token, "fault-test-token-0123456789\n"));
    ::chmod(token.c_str(), 0600);
    ::mkdir(tmp.Sub("root").c_str(), 0700);
    // `ip netns exec` execs the program: the PID is the agent's own.
    BackgroundProcess agent = StartProgram(IpBinary(), {"netns", "exec", lab.nas_ns, NasperfBinary(), "agent", "--listen",
                                                        "198.18.0.2:0", "--root", tmp.Sub("root"), "--token-file", token,
                                                        "--json"});
    json start = json::parse(FirstLine(agent, 10), nullptr, false);
    ASSERT_TRUE(start.is_object() && start.contains("agent")) << "agent start line missing";
    const std::string address = start["agent"]["listen"];

    BackgroundProcess client =
        StartProgram(IpBinary(), {"netns", "exec", lab.client_ns, NasperfBinary(), "net", address, "--dir", dir, "--time",
                                  "20", "--token-file", token, "--json", "--db", tmp.Sub("r.db")});
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    CliResult cut = Ip({"-n", lab.client_ns, "link", "set", lab.client_if, "down"});
    ASSERT_EQ(cut.exit_code, 0) << cut.err;
    CliResult r = client.Finish(20);  // elapsed_s: from the cut to the client's exit
    agent.Signal(SIGKILL);
    agent.Finish(5);

    EXPECT_FALSE(r.timed_out);
    EXPECT_LT(r.elapsed_s, 5.0) << "client took too long after the cut";
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(Contains(r.err, "partial run stored")) << r.err;
    json doc;
    ASSERT_TRUE(ParseJson(r.out, &doc)) << r.err;
    ASSERT_EQ(doc["runs"].size(), 1u);
    const json& run = doc["runs"][0];
    EXPECT_TRUE(run["partial"].get<bool>());
    EXPECT_GT(TotalBytes(run), 0u);
    EXPECT_EQ(run["target"], "net://" + address);
    // veth reports 10000 Mbit/s: the line-rate note names it.
    EXPECT_TRUE(Contains(run["notes"].dump(), "% of 10 GbE (" + lab.client_if + ")")) << run["notes"].dump();
  }
}

}  // namespace
}  // namespace nasperf::e2e
