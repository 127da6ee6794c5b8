// Agent addresses as users type them, and the client's token sources.
#include "wire/agent_client.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(AgentAddressTest, ParsesHostPortForms) {
  struct Case { const char* text; const char* host; uint16_t port; const char* shown; };
  for (const Case& c : {Case{"nas", "nas", 7070, "nas:7070"}, Case{"nas:9000", "nas", 9000, "nas:9000"},
                        Case{"127.0.0.1:1", "127.0.0.1", 1, "127.0.0.1:1"}, Case{"[::1]:80", "::1", 80, "[::1]:80"},
                        Case{"[fe80::1%eth0]", "fe80::1%eth0", 7070, "[fe80::1%eth0]:7070"},
                        Case{"::1", "::1", 7070, "[::1]:7070"}}) {
    Result<AgentAddress> a = ParseAgentAddress(c.text);
    ASSERT_TRUE(a.ok()) << c.text << ": " << a.status().message();
    EXPECT_EQ(a.value().host, c.host);
    EXPECT_EQ(a.value().port, c.port);
    EXPECT_EQ(a.value().text(), c.shown);
  }
}

TEST(AgentAddressTest, RefusesBadText) {
  for (const char* bad : {"", ":80", "nas:", "nas:x", "nas:0", "nas:65536", "nas:123456", "[::1", "[::1]x", "[::1]:",
                          "na s", "nas/x:1", "a;b"}) {
    Result<AgentAddress> a = ParseAgentAddress(bad);
    ASSERT_FALSE(a.ok()) << bad;
    EXPECT_EQ(a.status().kind(), ErrorKind::kBadInput);
    EXPECT_EQ(a.status().message().find('\n'), std::string::npos);
  }
}

TEST(AgentAddressTest, PortZeroOnlyForListening) {
  EXPECT_FALSE(ParseAgentAddress("127.0.0.1:0").ok());
  EXPECT_EQ(ParseAgentAddress("127.0.0.1:0", kDefaultPort, true).value().port, 0);
}

TEST(ClientTokenTest, EnvironmentWhenNoFile) {
  ::setenv("NASPERF_TOKEN", "from-the-environment", 1);
  EXPECT_EQ(LoadClientToken("").value(), "from-the-environment");
  ::unsetenv("NASPERF_TOKEN");
  EXPECT_EQ(LoadClientToken("").value(), "");
  EXPECT_FALSE(LoadClientToken("/nonexistent/token").ok());
}

}  // namespace
}  // namespace nasperf
