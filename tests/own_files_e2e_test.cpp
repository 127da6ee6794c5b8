// E2E tests of nasperf's own files: a `.nasperf-*` name proves nothing (links, a user's
// file), names never collide with another process's, left-overs are named, and `clean`.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

std::string UserData(size_t bytes) {
  std::string s(bytes, '\0');
  uint32_t x = 2463534242u;
  for (char& c : s) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    c = static_cast<char>(x);
  }
  return s;
}

// The layout: DIR/u is where nasperf is pointed, DIR/o/v the user's 1 MiB file.
struct LinkScene {
  TempDir dir;
  std::string user_file = dir.Sub("o/v");
  std::string content = UserData(1 << 20);
  bool ok() {
    return dir.ok() && ::mkdir(dir.Sub("u").c_str(), 0755) == 0 && ::mkdir(dir.Sub("o").c_str(), 0755) == 0 &&
           WriteFileBytes(user_file, content);
  }
};

void ExpectRefusedAndUnchanged(const std::string& target, const LinkScene& scene) {
  CliResult r = RunNasperf({"run", target, "--rw", "write", "--bs", "4k", "--size", "64k", "--no-store"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, target)) << r.err;
  EXPECT_TRUE(ReadFileBytes(scene.user_file) == scene.content) << "the user's file was written through " << target;
}

TEST(OwnFileE2eTest, SymlinkNamedLikeAnOwnFileIsNotWrittenThrough) {
  LinkScene scene;
  ASSERT_TRUE(scene.ok());
  const std::string link = scene.dir.Sub("u/.nasperf-x");
  ASSERT_EQ(::symlink("../o/v", link.c_str()), 0);
  ExpectRefusedAndUnchanged(link, scene);
}

TEST(OwnFileE2eTest, HardLinkNamedLikeAnOwnFileIsNotWrittenThrough) {
  LinkScene scene;
  ASSERT_TRUE(scene.ok());
  const std::string link = scene.dir.Sub("u/.nasperf-x");
  ASSERT_EQ(::link(scene.user_file.c_str(), link.c_str()), 0);
  ExpectRefusedAndUnchanged(link, scene);
}

TEST(OwnFileE2eTest, UsersOwnFileNamedLikeAnOwnFileIsNotWritten) {
  LinkScene scene;
  ASSERT_TRUE(scene.ok());
  scene.user_file = scene.dir.Sub("u/.nasperf-foo");
  ASSERT_TRUE(WriteFileBytes(scene.user_file, scene.content));
  ExpectRefusedAndUnchanged(scene.user_file, scene);
}

// nasperf is exec'd by the shell that made the file, so $$ is nasperf's own PID: the
// file has exactly the name a PID-only scheme gives nasperf's file.
CliResult RunAfterPlanting(const std::string& dir, const std::vector<std::string>& planted,
                           const std::vector<std::string>& args) {
  std::string script;
  for (const std::string& name : planted) script += "printf user-data > '" + dir + "/" + name + "' && ";
  script += "exec '" + std::string(NasperfBinary()) + "'";
  for (const std::string& a : args) script += " '" + a + "'";
  return RunProgram("/bin/sh", {"-c", script});
}

TEST(OwnFileE2eTest, SweepLeavesAFileWithItsPidNameAlone) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r =
      RunAfterPlanting(dir.path(), {".nasperf-$$-sweep.dat"},
                       {"sweep", dir.path(), "--min", "64k", "--max", "128k", "--tests", "write,read", "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> left = NasperfFiles(dir.path());
  ASSERT_EQ(left.size(), 1u) << "the planted file was removed (or nasperf left one)";
  EXPECT_EQ(ReadFileBytes(dir.Sub(left[0])), "user-data");
}

TEST(OwnFileE2eTest, RunLeavesFilesWithItsPidNamesAlone) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunAfterPlanting(dir.path(), {".nasperf-$$-0.dat", ".nasperf-$$-probe0"},
                                 {"run", dir.path(), "--rw", "write", "--bs", "4k", "--size", "64k", "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> left = NasperfFiles(dir.path());
  ASSERT_EQ(left.size(), 2u);
  for (const std::string& name : left) EXPECT_EQ(ReadFileBytes(dir.Sub(name)), "user-data") << name;
}

// A run killed with SIGKILL cannot clean up: its file is the left-over.
std::string KillARunMidway(const std::string& dir) {
  BackgroundProcess p =
      StartNasperf({"run", dir, "--rw", "write", "--bs", "64k", "--size", "8m", "--time", "30s", "--no-store"});
  if (!p.running()) return "";
  // The probe file comes and goes first; wait for the worker's file with data in it. A
  // file is marked as nasperf's (own_file.cpp) between its create and its first write, so
  // one killed in that moment is rightly left alone as unmarked: wait for a byte.
  std::string name = WaitForNasperfFile(dir, 10, 1);
  for (int i = 0; i < 100 && name.find("-t0.") == std::string::npos; ++i) {
    ::usleep(100 * 1000);
    name = WaitForNasperfFile(dir, 10, 1);
  }
  p.Signal(SIGKILL);
  p.Finish(10);
  return name;
}

TEST(OwnFileE2eTest, NextRunNamesTheLeftOverAndKeepsIt) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::string left = KillARunMidway(dir.path());
  ASSERT_NE(left, "");
  ASSERT_EQ(NasperfFiles(dir.path()), std::vector<std::string>{left});
  CliResult r = RunNasperf({"run", dir.path(), "--rw", "write", "--bs", "4k", "--size", "64k", "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, left)) << "the left-over is not named:\n" << r.err;
  EXPECT_TRUE(Contains(r.err, "nasperf clean")) << r.err;
  EXPECT_TRUE(OnlyWarningsOrProgress(r.err)) << r.err;
  EXPECT_EQ(NasperfFiles(dir.path()), std::vector<std::string>{left}) << "a run removes only its own files";
}

TEST(CleanE2eTest, ListsThenRemovesOnlyWhatNasperfMade) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::string left = KillARunMidway(dir.path());
  ASSERT_NE(left, "");
  const std::string outside = dir.Sub("outside");
  ASSERT_EQ(::mkdir(outside.c_str(), 0755), 0);
  const std::string work = dir.path();
  ASSERT_TRUE(WriteFileBytes(dir.Sub(".nasperf-foo"), "user's own"));
  ASSERT_TRUE(WriteFileBytes(outside + "/v", "linked"));
  ASSERT_EQ(::symlink("outside/v", dir.Sub(".nasperf-link").c_str()), 0);
  ASSERT_EQ(::link((outside + "/v").c_str(), dir.Sub(".nasperf-hard").c_str()), 0);
  ASSERT_TRUE(WriteFileBytes(dir.Sub("data.bin"), "not ours"));
  const std::vector<std::string> before = DirEntries(work);

  // Without --yes: listed, nothing removed.
  CliResult list = RunNasperf({"clean", work});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_TRUE(Contains(list.out, left)) << list.out;
  EXPECT_TRUE(Contains(list.out, ".nasperf-foo")) << list.out;
  EXPECT_TRUE(Contains(list.out, "--yes")) << list.out;
  EXPECT_EQ(DirEntries(work), before);

  CliResult clean = RunNasperf({"clean", work, "--yes"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_TRUE(Contains(clean.out, "removed")) << clean.out;
  std::vector<std::string> after = DirEntries(work);
  std::vector<std::string> expected;
  for (const std::string& name : before)
    if (name != left) expected.push_back(name);
  EXPECT_EQ(after, expected);
  EXPECT_EQ(ReadFileBytes(dir.Sub(".nasperf-foo")), "user's own");
  EXPECT_EQ(ReadFileBytes(outside + "/v"), "linked");
  struct stat st {};
  ASSERT_EQ(::lstat(dir.Sub(".nasperf-link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST(CleanE2eTest, LeavesARunningRunsFiles) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  BackgroundProcess p =
      StartNasperf({"run", dir.path(), "--rw", "write", "--bs", "64k", "--size", "8m", "--time", "20s", "--no-store"});
  ASSERT_TRUE(p.running());
  std::string name;
  for (int i = 0; i < 100 && name.find("-t0.") == std::string::npos; ++i) {
    ::usleep(100 * 1000);
    name = WaitForNasperfFile(dir.path(), 10);
  }
  ASSERT_NE(name.find("-t0."), std::string::npos) << name;
  CliResult clean = RunNasperf({"clean", dir.path(), "--yes"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_EQ(NasperfFiles(dir.path()), std::vector<std::string>{name}) << clean.out;
  p.Signal(SIGINT);
  CliResult r = p.Finish(10);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_TRUE(NasperfFiles(dir.path()).empty());
}

TEST(CleanE2eTest, NotADirectoryIsOneLineExit2) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFileBytes(dir.Sub("f"), "x"));
  for (const std::string& target : {dir.Sub("f"), dir.Sub("missing")}) {
    CliResult r = RunNasperf({"clean", target});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(Contains(r.err, target)) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace nasperf::e2e
