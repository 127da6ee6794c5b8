// Root confinement: what a client may name beneath --root and what it may not.
#include "agent/root_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "testing/test_support.h"

namespace nasperf {
namespace {

class RootPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() + "/root";
    ASSERT_EQ(::mkdir(root_.c_str(), 0700), 0);
    ASSERT_EQ(::mkdir((root_ + "/sub").c_str(), 0700), 0);
    ASSERT_EQ(::mkdir((dir_.path() + "/outside").c_str(), 0700), 0);
    ASSERT_EQ(::symlink("sub", (root_ + "/inner-link").c_str()), 0);
    ASSERT_EQ(::symlink((dir_.path() + "/outside").c_str(), (root_ + "/abs-link").c_str()), 0);
    ASSERT_EQ(::symlink("../outside", (root_ + "/rel-link").c_str()), 0);
  }
  Result<std::string> Resolve(const std::string& rel) { return RootDir::Open(root_).value().Resolve(rel); }
  void ExpectRefused(const std::string& rel, const std::string& why) {
    Result<std::string> r = Resolve(rel);
    ASSERT_FALSE(r.ok()) << rel << " resolved to " << r.value();
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find(why), std::string::npos) << rel << ": " << r.status().message();
  }
  testing::TempDir dir_;
  std::string root_;
};

TEST_F(RootPathTest, RootAndSubdirectoriesResolve) {
  std::string real = RootDir::Open(root_).value().real_path();
  EXPECT_EQ(Resolve("").value(), real);
  EXPECT_EQ(Resolve(".").value(), real);
  EXPECT_EQ(Resolve("sub").value(), real + "/sub");
  EXPECT_EQ(Resolve("./sub/").value(), real + "/sub");
  EXPECT_EQ(Resolve("inner-link").value(), real + "/sub");  // a symlink that stays inside
}

TEST_F(RootPathTest, AbsolutePathsAreRefused) { ExpectRefused("/etc", "absolute"); }

TEST_F(RootPathTest, DotDotIsRefused) {
  ExpectRefused("..", "'..'");
  ExpectRefused("../x", "'..'");
  ExpectRefused("sub/../..", "'..'");
  ExpectRefused("sub/..", "'..'");
}

TEST_F(RootPathTest, SymlinksLeadingOutAreRefused) {
  ExpectRefused("abs-link", "leads out");
  ExpectRefused("rel-link", "leads out");
}

TEST_F(RootPathTest, MissingAndNonDirectoriesAreRefused) {
  ExpectRefused("nope", "No such file");
  ASSERT_EQ(::close(::creat((root_ + "/file").c_str(), 0600)), 0);
  ExpectRefused("file", "not a directory");
}

TEST_F(RootPathTest, MissingRootIsBadInput) {
  Result<RootDir> r = RootDir::Open(dir_.path() + "/none");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
}

}  // namespace
}  // namespace nasperf
