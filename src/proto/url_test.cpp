// Protocol URL parsing: every part, and every malformed URL refused with one line.
#include "proto/url.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(ProtocolUrl, SmbWithDomainUserPortShareAndDir) {
  Result<ProtocolUrl> u = ParseProtocolUrl("smb://LAB;alice@198.18.0.2:4450/bench/sub/dir");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u.value().scheme, "smb");
  EXPECT_EQ(u.value().domain, "LAB");
  EXPECT_EQ(u.value().user, "alice");
  EXPECT_EQ(u.value().host, "198.18.0.2");
  EXPECT_EQ(u.value().port, 4450);
  EXPECT_EQ(u.value().path, (std::vector<std::string>{"bench", "sub", "dir"}));
  EXPECT_EQ(u.value().display(), "smb://LAB;alice@198.18.0.2:4450/bench/sub/dir");
}

TEST(ProtocolUrl, NfsWithoutPortAndWithRedundantSlashes) {
  Result<ProtocolUrl> u = ParseProtocolUrl("nfs://nas.example//bench/./x/");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u.value().port, 0);
  EXPECT_EQ(u.value().host, "nas.example");
  EXPECT_EQ(u.value().path, (std::vector<std::string>{"bench", "x"}));
  EXPECT_EQ(u.value().display(), "nfs://nas.example/bench/x");
}

TEST(ProtocolUrl, Ipv6HostInBrackets) {
  Result<ProtocolUrl> u = ParseProtocolUrl("iscsi://[::1]:3260/iqn.2026-11.lab.nasperf:lun1/1");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u.value().host, "::1");
  EXPECT_EQ(u.value().port, 3260);
  EXPECT_EQ(u.value().path, (std::vector<std::string>{"iqn.2026-11.lab.nasperf:lun1", "1"}));
  EXPECT_EQ(u.value().display(), "iscsi://[::1]:3260/iqn.2026-11.lab.nasperf:lun1/1");
}

TEST(ProtocolUrl, PasswordInTheUrlIsRefusedWithoutEchoingIt) {
  Result<ProtocolUrl> u = ParseProtocolUrl("smb://alice:s3cret@198.18.0.2/bench");
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(u.status().message().find("s3cret"), std::string::npos);
  EXPECT_NE(u.status().message().find("--password-file"), std::string::npos);
}

TEST(ProtocolUrl, MalformedUrlsAreBadInput) {
  for (const char* bad : {"ftp://host/x", "nfs://", "nfs:///bench", "nfs://host:0/x", "nfs://host:70000/x",
                          "nfs://host:port/x", "nfs://ho st/x", "smb://@host/share", "nfs://host/a/../b",
                          "nfs://[::1/x", "nfs://host/x?version=4", "nfs://[::1]x/y"}) {
    Result<ProtocolUrl> u = ParseProtocolUrl(bad);
    EXPECT_FALSE(u.ok()) << bad;
    if (!u.ok()) {
      EXPECT_EQ(u.status().kind(), ErrorKind::kBadInput) << bad;
      EXPECT_EQ(u.status().message().find('\n'), std::string::npos) << bad;
    }
  }
}

TEST(ProtocolUrl, KnowsItsSchemes) {
  EXPECT_TRUE(IsProtocolUrl("smb://h/s"));
  EXPECT_TRUE(IsProtocolUrl("nfs://h/e"));
  EXPECT_TRUE(IsProtocolUrl("iscsi://h/i/0"));
  EXPECT_FALSE(IsProtocolUrl("/tmp"));
  EXPECT_FALSE(IsProtocolUrl("http://h/"));
}

}  // namespace
}  // namespace nasperf
