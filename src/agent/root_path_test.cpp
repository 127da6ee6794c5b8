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
  // Where the resolved directory is, from its fd.
  Result<std::string> Resolve(const std::string& rel) {
    Result<ResolvedDir> r = RootDir::Open(root_).value().Resolve(rel);
    if (!r.ok()) return r.status();
    struct stat st {};
    if (::fstat(r.value().fd.get(), &st) != 0 || !S_ISDIR(st.st_mode)) return Status::Io("fd is not a directory");
    return r.value().real_path;
  }
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
}

TEST_F(RootPathTest, FilesAreCreatedRelativeToTheResolvedFd) {
  Result<ResolvedDir> sub = RootDir::Open(root_).value().Resolve("sub");
  ASSERT_TRUE(sub.ok()) << sub.status().message();
  // "sub" is swapped for a symlink to outside after the resolve: the fd still names the
  // directory that was resolved, now called "moved".
  ASSERT_EQ(::rename((root_ + "/sub").c_str(), (root_ + "/moved").c_str()), 0);
  ASSERT_EQ(::symlink((dir_.path() + "/outside").c_str(), (root_ + "/sub").c_str()), 0);
  ScopedFd f(::openat(sub.value().fd.get(), "x", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600));
  ASSERT_TRUE(f.valid());
  struct stat st {};
  EXPECT_EQ(::stat((root_ + "/moved/x").c_str(), &st), 0);
  EXPECT_NE(::stat((dir_.path() + "/outside/x").c_str(), &st), 0);
}

TEST_F(RootPathTest, EverySymlinkIsRefusedEvenOneThatStaysInside) {
  // A symlink inside the root could be swapped for one leading out at any moment.
  ExpectRefused("inner-link", "symlink");
  ExpectRefused("inner-link/", "symlink");
  ASSERT_EQ(::symlink(".", (root_ + "/sub/self").c_str()), 0);
  ExpectRefused("sub/self", "symlink");
}

TEST_F(RootPathTest, AbsolutePathsAreRefused) { ExpectRefused("/etc", "absolute"); }

TEST_F(RootPathTest, DotDotIsRefused) {
  ExpectRefused("..", "'..'");
  ExpectRefused("../x", "'..'");
  ExpectRefused("sub/../..", "'..'");
  ExpectRefused("sub/..", "'..'");
}

TEST_F(RootPathTest, SymlinksLeadingOutAreRefused) {
  ExpectRefused("abs-link", "symlink");
  ExpectRefused("rel-link", "symlink");
}

TEST_F(RootPathTest, OverlongAndNulPathsAreRefused) {
  ExpectRefused(std::string(5000, 'a'), "longer than");
  ExpectRefused(std::string("sub\0x", 5), "NUL");
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
