// SpawnChild: each passed descriptor arrives at its own number, whatever numbers the
// sources had.
#include "base/spawn_child.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "base/scoped_fd.h"
#include "testing/temp_dir.h"

namespace nasperf {
namespace {

using testing::TempDir;

std::string RealPath(const std::string& path) {
  char real[PATH_MAX];
  return ::realpath(path.c_str(), real) ? std::string(real) : std::string();
}

// Runs `script` under /bin/sh with `spawn`'s descriptors; its stdout, or "" on failure.
std::string RunShell(ChildSpawn spawn, const std::string& script) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  ScopedFd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
  spawn.exe = "/bin/sh";
  spawn.argv = {"sh", "-c", script};
  spawn.env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  spawn.stdout_fd = write_end.get();
  Result<pid_t> pid = SpawnChild(spawn);
  write_end.reset();
  if (!pid.ok()) return "";
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = ::read(read_end.get(), buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(n));
  int status = 0;
  ::waitpid(pid.value(), &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? out : "";
}

// Opens `path` as exactly descriptor `at` (which it replaces).
ScopedFd OpenAt(const std::string& path, int at) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ScopedFd();
  if (fd == at) return ScopedFd(fd);
  const int placed = ::dup3(fd, at, O_CLOEXEC);
  ::close(fd);
  return ScopedFd(placed);
}

TEST(SpawnChild, SourcesNumberedAsEachOthersTargetsArriveUnswapped) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.Sub("source").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir(dir.Sub("to").c_str(), 0700), 0);
  // The order that gave an agent's child `to` twice: the first source is the second
  // target and the second source the first.
  ScopedFd source = OpenAt(dir.Sub("source"), 11), to = OpenAt(dir.Sub("to"), 10);
  ASSERT_EQ(source.get(), 11);
  ASSERT_EQ(to.get(), 10);
  ChildSpawn spawn;
  spawn.first_passed_fd = 10;
  spawn.passed = {source.get(), to.get()};
  spawn.cwd_fd = source.get();
  EXPECT_EQ(RunShell(spawn, "readlink /proc/self/fd/10 /proc/self/fd/11; pwd -P"),
            RealPath(dir.Sub("source")) + "\n" + RealPath(dir.Sub("to")) + "\n" + RealPath(dir.Sub("source")) + "\n");
}

TEST(SpawnChild, ADescriptorAlreadyAtItsTargetArrivesOpen) {
  TempDir dir;
  ScopedFd at_target = OpenAt(dir.path(), 10);  // close-on-exec, as every descriptor of ours
  ASSERT_EQ(at_target.get(), 10);
  ChildSpawn spawn;
  spawn.passed = {at_target.get()};
  EXPECT_EQ(RunShell(spawn, "readlink /proc/self/fd/10"), RealPath(dir.path()) + "\n");
}

TEST(SpawnChild, AMissingProgramIsAnError) {
  ChildSpawn spawn;
  spawn.exe = "/nonexistent/nasperf";
  spawn.argv = {"nasperf"};
  EXPECT_FALSE(SpawnChild(spawn).ok());
}

}  // namespace
}  // namespace nasperf
