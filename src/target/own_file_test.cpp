// Tests of nasperf's own files: run-unique names, exclusive creation, the ownership
// proof, and that only the file this process created is ever written or removed.
#include "target/own_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "testing/test_support.h"

namespace nasperf {
namespace {

bool PlantFile(const std::string& path, const std::string& bytes) {
  ScopedFd fd(::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644));
  return fd.valid() && ::write(fd.get(), bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
}

bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// What a run killed with SIGKILL leaves: a name of another (dead) run, and the mark.
std::string LeftOver(const std::string& dir, const std::string& content = "left over") {
  std::string name = ".nasperf-" + FileNameHost() + "-999999-0123456789abcdef-t0.dat";
  EXPECT_TRUE(PlantFile(dir + "/" + name, content));
  EXPECT_EQ(::setxattr((dir + "/" + name).c_str(), kOwnMarkAttribute, name.data(), name.size(), 0), 0)
      << "this file system keeps no user extended attributes";
  return name;
}

TEST(OwnFileName, CarriesHostPidAndRunNonceAndParsesBack) {
  std::string name = OwnFileName("t3");
  std::optional<OwnFileNameParts> parts = ParseOwnFileName(name);
  ASSERT_TRUE(parts) << name;
  EXPECT_EQ(parts->host, FileNameHost());
  EXPECT_EQ(parts->pid, ::getpid());
  EXPECT_EQ(parts->nonce, RunNonce());
  EXPECT_EQ(parts->role, "t3");
  EXPECT_EQ(RunNonce().size(), 16u);
  EXPECT_NE(RunNonce(), "0000000000000000");
  EXPECT_NE(OwnFileName("t0"), OwnFileName("t1"));
  EXPECT_NE(OwnFileName("sweep"), OwnFileName("sweep", "tmp"));
}

TEST(OwnFileName, OldStyleAndUsersNamesDoNotParse) {
  for (const char* name : {".nasperf-123-0.dat", ".nasperf-123-sweep.dat", ".nasperf-x", ".nasperf-foo",
                           "nasperf-h-1-0123456789abcdef-t0.dat", ".nasperf-h-1-0123456789abcdeg-t0.dat",
                           ".nasperf-h-1-0123456789abcdef-t0", ".nasperf--1-0123456789abcdef-t0.dat",
                           ".nasperf-h-x-0123456789abcdef-t0.dat", ".nasperf-h-1-0123456789abcdef-.dat"})
    EXPECT_FALSE(ParseOwnFileName(name)) << name;
  EXPECT_TRUE(ParseOwnFileName(".nasperf-nas.local-1-0123456789abcdef-probe7.dat"));
}

TEST(OwnFile, CreatesExclusivelyMarksLocksAndRemovesOnlyItsOwnFile) {
  testing::TempDir dir;
  std::string path;
  {
    Result<OwnFile> file = OwnFile::Create(dir.path(), "t0");
    ASSERT_TRUE(file.ok()) << file.status().message();
    path = file.value().path();
    EXPECT_EQ(path, dir.path() + "/" + OwnFileName("t0"));
    // The same name again: O_EXCL refuses, and the first file is untouched.
    Result<OwnFile> again = OwnFile::Create(dir.path(), "t0");
    EXPECT_FALSE(again.ok());
    EXPECT_EQ(again.status().err(), EEXIST);
    EXPECT_TRUE(Exists(path));
    // Another descriptor sees it in use, and ours by its mark.
    ScopedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    bool locked = false;
    OwnershipCheck check = JudgeOwnFile(fd.get(), OwnFileName("t0"), &locked);
    EXPECT_EQ(check.verdict, Ownership::kInUse) << check.why;
  }
  EXPECT_FALSE(Exists(path)) << "a created file is removed with its OwnFile";
}

TEST(OwnFile, NeverCreatesThroughASymlink) {
  testing::TempDir dir;
  std::string victim = dir.path() + "/victim";
  ASSERT_TRUE(PlantFile(victim, "user data"));
  ASSERT_EQ(::symlink(victim.c_str(), (dir.path() + "/" + OwnFileName("t0")).c_str()), 0);
  EXPECT_FALSE(OwnFile::Create(dir.path(), "t0").ok());
  EXPECT_EQ(testing::ReadWholeFile(victim), "user data");
}

TEST(OwnFile, AFileThatTookItsNameIsNeitherOpenedNorRemoved) {
  testing::TempDir dir;
  Result<OwnFile> file = OwnFile::Create(dir.path(), "t0");
  ASSERT_TRUE(file.ok());
  const std::string path = file.value().path();
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_TRUE(PlantFile(path, "someone else's"));
  EXPECT_FALSE(file.value().Reopen(O_RDWR).ok());
  EXPECT_FALSE(file.value().Remove().ok());
  EXPECT_EQ(testing::ReadWholeFile(path), "someone else's");
}

TEST(OwnFile, AHardLinkedFileIsNotReopened) {
  testing::TempDir dir;
  Result<OwnFile> file = OwnFile::Create(dir.path(), "t0");
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(file.value().Reopen(O_RDWR).ok());
  ASSERT_EQ(::link(file.value().path().c_str(), (dir.path() + "/other").c_str()), 0);
  EXPECT_FALSE(file.value().Reopen(O_RDWR).ok());
}

TEST(OwnFile, AdoptsOnlyALeftOverThatProvesItsOwnerAndKeepsIt) {
  testing::TempDir dir;
  const std::string name = LeftOver(dir.path());
  {
    Result<OwnFile> adopted = OwnFile::Adopt(dir.path() + "/" + name);
    ASSERT_TRUE(adopted.ok()) << adopted.status().message();
    EXPECT_TRUE(adopted.value().Reopen(O_RDWR).ok());
    // Held: a second run may not take it at the same time.
    EXPECT_FALSE(OwnFile::Adopt(dir.path() + "/" + name).ok());
  }
  EXPECT_TRUE(Exists(dir.path() + "/" + name)) << "an adopted file is not this run's to remove";

  ASSERT_TRUE(PlantFile(dir.path() + "/.nasperf-foo", "user's"));
  ASSERT_EQ(::symlink(name.c_str(), (dir.path() + "/.nasperf-link").c_str()), 0);
  std::string unmarked = ".nasperf-h-1-0123456789abcdef-t0.dat";
  ASSERT_TRUE(PlantFile(dir.path() + "/" + unmarked, "user's"));
  for (const std::string& bad : std::vector<std::string>{".nasperf-foo", ".nasperf-link", unmarked}) {
    Result<OwnFile> refused = OwnFile::Adopt(dir.path() + "/" + bad);
    EXPECT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.status().kind(), ErrorKind::kBadInput) << bad;
  }
  ASSERT_EQ(::link((dir.path() + "/" + name).c_str(), (dir.path() + "/hard").c_str()), 0);
  EXPECT_FALSE(OwnFile::Adopt(dir.path() + "/" + name).ok()) << "two hard links";
}

TEST(OwnFile, AnotherUsersFileIsNotOurs) {
  if (::geteuid() != 0) NASPERF_SKIP_OR_FAIL_IN_CI("needs root to give a file to another uid");
  testing::TempDir dir;
  const std::string name = LeftOver(dir.path());
  ASSERT_EQ(::chown((dir.path() + "/" + name).c_str(), 4242, 4242), 0);
  Result<OwnFile> refused = OwnFile::Adopt(dir.path() + "/" + name);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("uid 4242"), std::string::npos) << refused.status().message();
}

TEST(StaleFiles, FoundJudgedAndOnlyNasperfsRemoved) {
  testing::TempDir dir;
  const std::string left = LeftOver(dir.path(), "stale data");
  Result<OwnFile> live = OwnFile::Create(dir.path(), "t0");
  ASSERT_TRUE(live.ok());
  ASSERT_TRUE(PlantFile(dir.path() + "/.nasperf-foo", "user's"));
  ASSERT_TRUE(PlantFile(dir.path() + "/outside", "linked"));
  ASSERT_EQ(::symlink("outside", (dir.path() + "/.nasperf-link").c_str()), 0);
  ASSERT_TRUE(PlantFile(dir.path() + "/data.bin", "not a nasperf name"));

  Result<std::vector<StaleFile>> stale = FindStaleFiles(dir.path());
  ASSERT_TRUE(stale.ok()) << stale.status().message();
  ASSERT_EQ(stale.value().size(), 3u) << "the running file and data.bin are not listed";
  for (const StaleFile& f : stale.value()) {
    if (f.name == left) {
      EXPECT_EQ(f.check.verdict, Ownership::kOurs) << f.check.why;
      EXPECT_EQ(f.check.size_bytes, 10u);
      ASSERT_TRUE(f.check.parts);
      EXPECT_EQ(f.check.parts->pid, 999999);
    } else if (f.name == ".nasperf-foo") {
      EXPECT_EQ(f.check.verdict, Ownership::kBadName);
    } else {
      EXPECT_EQ(f.name, ".nasperf-link");
      EXPECT_EQ(f.check.verdict, Ownership::kNotRegular);
    }
  }
  for (const char* name : {".nasperf-foo", ".nasperf-link"})
    EXPECT_EQ(RemoveStaleFile(dir.path(), name).kind(), ErrorKind::kBadInput) << name;
  EXPECT_FALSE(RemoveStaleFile(dir.path(), OwnFileName("t0")).ok()) << "in use by this run";
  EXPECT_TRUE(RemoveStaleFile(dir.path(), left).ok());
  EXPECT_FALSE(Exists(dir.path() + "/" + left));
  EXPECT_EQ(testing::ReadWholeFile(dir.path() + "/.nasperf-foo"), "user's");
  EXPECT_EQ(testing::ReadWholeFile(dir.path() + "/outside"), "linked");
  EXPECT_TRUE(Exists(dir.path() + "/.nasperf-link"));
  EXPECT_TRUE(Exists(live.value().path()));
}

}  // namespace
}  // namespace nasperf
