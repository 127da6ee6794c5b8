// E2E: a protocol target whose server is not there, or does not answer, is one clear
// line and exit 1 within --connect-timeout: never a hang, never a vague library error.
// Only loopback: a port that refuses, and a listener that never answers.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "cli_harness.h"
#include "base/scoped_fd.h"

namespace nasperf::e2e {
namespace {

// A loopback TCP socket bound to a free port. Listening, connects succeed and nothing
// ever answers; not listening, connects are refused.
class LoopbackPort {
 public:
  explicit LoopbackPort(bool listening) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (!fd_.valid() || ::bind(fd_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::getsockname(fd_.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      return;
    if (listening && ::listen(fd_.get(), 16) != 0) return;
    port_ = ntohs(addr.sin_port);
  }
  uint16_t port() const { return port_; }

 private:
  ScopedFd fd_;
  uint16_t port_ = 0;
};

void ExpectUnreachable(const std::vector<std::string>& args, const std::string& needle, double timeout_s) {
  SCOPED_TRACE(Join(args));
  CliResult r = RunNasperf(args, 60);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, needle)) << "wanted '" << needle << "' in: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  // The timeout bounds each connection attempt; allow a few of them and process start-up.
  EXPECT_LT(r.elapsed_s, 4 * timeout_s + 5) << "took " << r.elapsed_s << " s";
}

TEST(ProtocolUnreachableTest, ARefusedSmbServerIsOneLineExitOne) {
  LoopbackPort closed(false);
  ASSERT_NE(closed.port(), 0);
  const std::string url = "smb://127.0.0.1:" + std::to_string(closed.port()) + "/share/dir";
  ExpectUnreachable({"run", url, "--size", "1m", "--connect-timeout", "2"}, "Connection refused", 2);
  ExpectUnreachable({"quick", url, "--size", "16m", "--connect-timeout", "2"}, "Connection refused", 2);
}

TEST(ProtocolUnreachableTest, ARefusedIscsiPortalIsOneLineExitOne) {
  LoopbackPort closed(false);
  ASSERT_NE(closed.port(), 0);
  const std::string url = "iscsi://127.0.0.1:" + std::to_string(closed.port()) + "/iqn.2026-11.test:none/1";
  ExpectUnreachable({"run", url, "--rw", "read", "--size", "1m", "--connect-timeout", "2"}, "Connection refused", 2);
}

TEST(ProtocolUnreachableTest, ASilentSmbServerGivesUpWithinTheTimeout) {
  LoopbackPort silent(true);
  ASSERT_NE(silent.port(), 0);
  const std::string url = "smb://127.0.0.1:" + std::to_string(silent.port()) + "/share/dir";
  ExpectUnreachable({"run", url, "--size", "1m", "--connect-timeout", "1"}, "smb", 1);
}

TEST(ProtocolUnreachableTest, ASilentIscsiPortalGivesUpWithinTheTimeout) {
  LoopbackPort silent(true);
  ASSERT_NE(silent.port(), 0);
  const std::string url = "iscsi://127.0.0.1:" + std::to_string(silent.port()) + "/iqn.2026-11.test:none/1";
  ExpectUnreachable({"run", url, "--rw", "read", "--size", "1m", "--connect-timeout", "1"}, "iscsi", 1);
}

}  // namespace
}  // namespace nasperf::e2e
