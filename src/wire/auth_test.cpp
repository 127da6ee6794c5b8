// Authentication: MAC round trip, wrong token, replay on a new connection, the agent's
// proof, token files and loopback detection.
#include "wire/auth.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "testing/test_support.h"

namespace nasperf {
namespace {

struct Nonces {
  std::string client = HexToBytes(RandomHex(kNonceBytes).value(), kNonceBytes, "n").value();
  std::string server = HexToBytes(RandomHex(kNonceBytes).value(), kNonceBytes, "n").value();
};

const std::string kToken = "0123456789abcdef-secret";

TEST(AuthTest, NoncesAreFreshHex) {
  std::string a = RandomHex(kNonceBytes).value(), b = RandomHex(kNonceBytes).value();
  EXPECT_EQ(a.size(), 64u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(AuthTest, MacRoundTrip) {
  Nonces n;
  std::string mac = ClientMac(kToken, "control", n.server, n.client);
  EXPECT_EQ(mac.size(), 64u);
  EXPECT_TRUE(MacMatches(ClientMac(kToken, "control", n.server, n.client), mac));
}

// The MAC is HMAC-SHA256 exactly (an agent and a client built against different crypto
// libraries must agree): known answers from Python's hmac module, for a token and for
// the empty key of --insecure.
TEST(AuthTest, AgentMacIsHmacSha256) {
  EXPECT_EQ(AgentMac("0123456789abcdef-token", "c0ffee", "beef"),
            "91c3f8f16881dbcc882d80d1335fb19f243a36e4c64037f09861e1079e0be5a2");
  EXPECT_EQ(AgentMac("", "aa", "bb"), "8bcdd7bedaf92f75fafec4583b126b7c8cfc69f42bc290ace7c7e743e678aed1");
  EXPECT_FALSE(MacMatches(AgentMac("", "aa", "bb"), AgentMac("", "aa", "bc")));
}

TEST(AuthTest, WrongTokenOrRoleIsRefused) {
  Nonces n;
  std::string mac = ClientMac("another-token-of-16", "control", n.server, n.client);
  EXPECT_FALSE(MacMatches(ClientMac(kToken, "control", n.server, n.client), mac));
  // A control proof is no data proof.
  EXPECT_FALSE(MacMatches(ClientMac(kToken, "data", n.server, n.client), ClientMac(kToken, "control", n.server, n.client)));
}

TEST(AuthTest, ReplayedAuthOnANewConnectionIsRefused) {
  Nonces first;
  std::string recorded = ClientMac(kToken, "control", first.server, first.client);
  // The attacker replays Hello (same client nonce) and the recorded Auth; the agent's new
  // connection has a new server nonce.
  Nonces second;
  second.client = first.client;
  EXPECT_FALSE(MacMatches(ClientMac(kToken, "control", second.server, second.client), recorded));
}

TEST(AuthTest, AgentProofIsCheckedByTheClient) {
  Nonces n;
  std::string genuine = AgentMac(kToken, n.client, n.server);
  EXPECT_TRUE(MacMatches(AgentMac(kToken, n.client, n.server), genuine));
  EXPECT_FALSE(MacMatches(AgentMac(kToken, n.client, n.server), AgentMac("impostor-token-xxxx", n.client, n.server)));
  // Echoing the client's own proof back is not the agent's proof.
  EXPECT_FALSE(MacMatches(AgentMac(kToken, n.client, n.server), ClientMac(kToken, "control", n.server, n.client)));
  EXPECT_FALSE(MacMatches(genuine, genuine.substr(0, 63)));
  EXPECT_FALSE(MacMatches(genuine, ""));
}

TEST(AuthTest, HexToBytesRefusesBadText) {
  EXPECT_FALSE(HexToBytes("abc", 2, "x").ok());
  EXPECT_FALSE(HexToBytes("zz11", 2, "x").ok());
  EXPECT_EQ(HexToBytes("00ff", 2, "x").value(), std::string("\x00\xff", 2));
}

std::string WriteToken(const std::string& dir, const std::string& content, mode_t mode) {
  std::string path = dir + "/token";
  { std::ofstream(path) << content; }
  ::chmod(path.c_str(), mode);
  return path;
}

TEST(AuthTest, TokenFileLoadsWithoutTrailingNewline) {
  testing::TempDir dir;
  Result<std::string> t = LoadTokenFile(WriteToken(dir.path(), kToken + "\n", 0600));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value(), kToken);
}

TEST(AuthTest, TokenFileReadableByOthersIsRefused) {
  testing::TempDir dir;
  for (mode_t mode : {0644, 0640, 0604, 0620, 0602}) {
    std::string path = WriteToken(dir.path(), kToken, mode);
    Result<std::string> t = LoadTokenFile(path);
    ASSERT_FALSE(t.ok()) << std::oct << mode;
    EXPECT_EQ(t.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(t.status().message().find(path), std::string::npos);
    EXPECT_NE(t.status().message().find("mode 0"), std::string::npos) << t.status().message();
  }
}

TEST(AuthTest, ShortOrMissingTokenFileIsRefused) {
  testing::TempDir dir;
  EXPECT_FALSE(LoadTokenFile(WriteToken(dir.path(), "short\n", 0600)).ok());
  EXPECT_FALSE(LoadTokenFile(dir.path() + "/missing").ok());
}

TEST(AuthTest, LoopbackHosts) {
  EXPECT_TRUE(IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackHost("127.5.6.7"));
  EXPECT_TRUE(IsLoopbackHost("::1"));
  EXPECT_TRUE(IsLoopbackHost("localhost"));
  EXPECT_FALSE(IsLoopbackHost("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackHost("198.18.0.1"));
  EXPECT_FALSE(IsLoopbackHost("::"));
  EXPECT_FALSE(IsLoopbackHost("nas.example"));
}

}  // namespace
}  // namespace nasperf
