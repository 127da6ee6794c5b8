// E2E: libsmbclient has no flush call, so `--fsync` on smb:// is refused with one line and
// exit 2 before anything connects (closing and reopening the file is not an fsync).
#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <vector>

#include "cli_harness.h"
#include "base/scoped_fd.h"

namespace nasperf::e2e {
namespace {

// A loopback port with a bound socket that does not listen: a connection is refused, so
// an attempt to connect would end in "Connection refused", not in the --fsync line.
class RefusingPort {
 public:
  RefusingPort() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd_.valid() && ::bind(fd_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd_.get(), reinterpret_cast<sockaddr*>(&addr), &len) == 0)
      port_ = ntohs(addr.sin_port);
  }
  uint16_t port() const { return port_; }

 private:
  ScopedFd fd_;
  uint16_t port_ = 0;
};

TEST(SmbFsyncE2eTest, FsyncOnASmbShareIsRefusedBeforeConnecting) {
  RefusingPort port;
  ASSERT_NE(port.port(), 0);
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string url = "smb://127.0.0.1:" + std::to_string(port.port()) + "/share/dir";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", url, "--rw", "write", "--size", "1m", "--fsync", "--db", dir.Sub("r.db")},
        std::vector<std::string>{"sweep", url, "--max", "1m", "--fsync", "--db", dir.Sub("r.db")}}) {
    SCOPED_TRACE(Join(args));
    CliResult r = RunNasperf(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(Contains(r.err, "--fsync")) << r.err;
    EXPECT_TRUE(Contains(r.err, "no flush")) << r.err;
    EXPECT_FALSE(Contains(r.err, "refused")) << "it tried to connect first: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(DirEntries(dir.path()), std::vector<std::string>{}) << "nothing written, not even the database";
}

}  // namespace
}  // namespace nasperf::e2e
