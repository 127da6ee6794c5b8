// BuildTargetOptions: the timeout, where the password comes from, and credentials refused
// for targets that take none; IoModeText: no O_DIRECT claimed for protocol targets.
#include "cli/protocol_options.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "testing/test_support.h"

namespace nasperf {
namespace {

class ProtocolOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override { ::unsetenv("NASPERF_PASSWORD"); }
  void TearDown() override { ::unsetenv("NASPERF_PASSWORD"); }
  std::string PasswordFile(const std::string& content, mode_t mode = 0600) {
    std::string path = dir_.path() + "/pw";
    { std::ofstream(path) << content; }
    ::chmod(path.c_str(), mode);
    return path;
  }
  testing::TempDir dir_;
};

TEST_F(ProtocolOptionsTest, TimeoutDefaultsToTenSecondsAndParsesUnits) {
  ProtocolOptions o;
  EXPECT_EQ(BuildTargetOptions(o, "/tmp").value().connect_timeout_ms, 10000u);
  o.connect_timeout = "2500ms";
  EXPECT_EQ(BuildTargetOptions(o, "nfs://h/e").value().connect_timeout_ms, 2500u);
  o.connect_timeout = "1m";
  EXPECT_EQ(BuildTargetOptions(o, "nfs://h/e").value().connect_timeout_ms, 60000u);
  for (const char* bad : {"fast", "0", "50ms", "11m", "-1s"}) {
    o.connect_timeout = bad;
    Result<TargetOptions> r = BuildTargetOptions(o, "nfs://h/e");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_EQ(r.status().message().rfind("--connect-timeout", 0), 0u) << r.status().message();
  }
}

TEST_F(ProtocolOptionsTest, PasswordFileWinsOverTheEnvironment) {
  ::setenv("NASPERF_PASSWORD", "from-env", 1);
  ProtocolOptions o;
  Result<TargetOptions> env = BuildTargetOptions(o, "smb://u@h/s");
  ASSERT_TRUE(env.ok()) << env.status().message();
  EXPECT_EQ(env.value().password, "from-env");
  o.password_file = PasswordFile("from-file\n");
  o.user = "alice";
  Result<TargetOptions> file = BuildTargetOptions(o, "smb://u@h/s");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file.value().password, "from-file");
  EXPECT_EQ(file.value().user, "alice");
}

TEST_F(ProtocolOptionsTest, NoPasswordMeansGuest) {
  Result<TargetOptions> r = BuildTargetOptions(ProtocolOptions{}, "smb://h/s");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().password.empty());
  EXPECT_TRUE(r.value().user.empty());
}

TEST_F(ProtocolOptionsTest, CredentialsForTargetsThatTakeNoneAreRefused) {
  ProtocolOptions o;
  o.user = "alice";
  for (const char* target : {"/tmp", "nfs://h/e", "null:"}) {
    Result<TargetOptions> r = BuildTargetOptions(o, target);
    ASSERT_FALSE(r.ok()) << target;
    EXPECT_EQ(r.status().message().rfind("--user:", 0), 0u);
  }
  o.user.clear();
  o.password_file = PasswordFile("x");
  EXPECT_EQ(BuildTargetOptions(o, "/tmp").status().message().rfind("--password-file:", 0), 0u);
}

TEST_F(ProtocolOptionsTest, IscsiTakesAChapUserAndPassword) {
  ProtocolOptions o;
  o.user = "initiator";
  o.password_file = PasswordFile("chap-secret-12");
  Result<TargetOptions> r = BuildTargetOptions(o, "iscsi://h/iqn.x/0");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().user, "initiator");
  EXPECT_EQ(r.value().password, "chap-secret-12");
}

TEST_F(ProtocolOptionsTest, UnsafePasswordFileIsRefused) {
  ProtocolOptions o;
  o.password_file = PasswordFile("hunter2", 0644);
  Result<TargetOptions> r = BuildTargetOptions(o, "smb://h/s");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(r.status().message().find("hunter2"), std::string::npos);
}

// quick's heading: O_DIRECT or buffered on local targets; a protocol's client library
// keeps no cache, and there is no O_DIRECT to speak of.
TEST(IoModeText, LocalTargetsSayDirectOrBufferedProtocolTargetsSayNoClientCache) {
  EXPECT_EQ(IoModeText("/tmp", true), "direct (O_DIRECT) I/O");
  EXPECT_EQ(IoModeText("/tmp", false), "buffered I/O");
  EXPECT_EQ(IoModeText("smb://alice@h/share", true), "I/O straight to the server (libsmbclient keeps no client cache)");
  EXPECT_EQ(IoModeText("nfs://h/export", true), "I/O straight to the server (libnfs keeps no client cache)");
  EXPECT_EQ(IoModeText("iscsi://h/iqn.x/0", false), "I/O straight to the server (libiscsi keeps no client cache)");
}

}  // namespace
}  // namespace nasperf
