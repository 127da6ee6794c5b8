// SpawnChild (base/spawn_child.h).
#include "base/spawn_child.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/scoped_fd.h"

namespace nasperf {
namespace {

// posix_spawn's attributes and file actions, destroyed on every path.
struct SpawnState {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnState() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnState() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

std::vector<char*> Pointers(std::vector<std::string>& text) {
  std::vector<char*> p;
  for (std::string& s : text) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

}  // namespace

Result<pid_t> SpawnChild(const ChildSpawn& spawn) {
  // Every target is below `floor`; every source is lifted to `floor` or above.
  const int floor = std::max(3, spawn.first_passed_fd + static_cast<int>(spawn.passed.size()));
  std::vector<ScopedFd> lifted;
  auto lift = [&](int fd) -> int {
    if (fd < 0) return -1;
    const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, floor);
    if (copy < 0) return -1;
    lifted.emplace_back(copy);
    return copy;
  };
  const int out = lift(spawn.stdout_fd), err = lift(spawn.stderr_fd), cwd = lift(spawn.cwd_fd);
  std::vector<int> passed;
  for (int fd : spawn.passed) passed.push_back(lift(fd));
  if ((spawn.stdout_fd >= 0 && out < 0) || (spawn.stderr_fd >= 0 && err < 0) || (spawn.cwd_fd >= 0 && cwd < 0) ||
      std::find(passed.begin(), passed.end(), -1) != passed.end())
    return Status::Io(std::string("cannot start ") + spawn.exe + ": its descriptors: " + std::strerror(errno));

  SpawnState state;
  posix_spawn_file_actions_addopen(&state.actions, 0, "/dev/null", O_RDONLY, 0);
  if (out >= 0) posix_spawn_file_actions_adddup2(&state.actions, out, 1);
  if (err >= 0) posix_spawn_file_actions_adddup2(&state.actions, err, 2);
  for (size_t i = 0; i < passed.size(); ++i)
    posix_spawn_file_actions_adddup2(&state.actions, passed[i], spawn.first_passed_fd + static_cast<int>(i));
  if (cwd >= 0) posix_spawn_file_actions_addfchdir_np(&state.actions, cwd);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&state.attr, &none);
  posix_spawnattr_setsigdefault(&state.attr, &defaults);
  posix_spawnattr_setflags(&state.attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> argv_text = spawn.argv, env_text = spawn.env;
  std::vector<char*> argv = Pointers(argv_text), envp = Pointers(env_text);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, spawn.exe.c_str(), &state.actions, &state.attr, argv.data(), envp.data());
  if (rc != 0) return Status::Io("cannot start " + spawn.exe + ": " + std::strerror(rc));
  return pid;
}

}  // namespace nasperf
