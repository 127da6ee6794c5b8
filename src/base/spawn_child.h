// SpawnChild: posix_spawn with descriptors handed to the child at fixed numbers.
//
// posix_spawn applies its dup2 actions in order, so a naive list breaks when a source
// descriptor is itself a later target: with sources 11 and 10 for targets 10 and 11, the
// first dup2 overwrites 10 before it is read, and the child gets the same directory
// twice (an agent whose descriptors happened to be numbered so listed an empty --to for
// --source). SpawnChild first lifts every source above the highest target, close-on-exec,
// so no action can read what an earlier one wrote, and the lifted copies never reach the
// child.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

struct ChildSpawn {
  std::string exe;                // an absolute path (e.g. /proc/self/exe)
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // the whole environment, NAME=value each
  int stdout_fd = -1;             // the child's 1 and 2; stdin is /dev/null
  int stderr_fd = -1;
  int first_passed_fd = 10;       // passed[i] becomes descriptor first_passed_fd + i
  std::vector<int> passed;
  int cwd_fd = -1;                // the child's working directory; -1 keeps the caller's
};

// The child's PID; Io naming the cause when it cannot start. The child starts with no
// signal blocked and SIGINT, SIGTERM, SIGPIPE and SIGHUP at their defaults (a caller's
// threads may block signals the child must take).
Result<pid_t> SpawnChild(const ChildSpawn& spawn);

}  // namespace nasperf
