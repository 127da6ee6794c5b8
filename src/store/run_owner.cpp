// RunOwner: the host name, PID and start mark of a process, and the liveness check.
#include "store/run_owner.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

namespace nasperf {
namespace {

std::string HostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

std::string BootId() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

// Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot.
// The command name (field 2) may hold spaces and parentheses, so fields are counted
// from the last ')'.
std::string StartTicks(int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return "";
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return "";
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  for (int n = 3; n <= 22 && (fields >> field); ++n)
    if (n == 22) return field;
  return "";
}

std::string StartMark(int64_t pid) {
  std::string boot = BootId(), ticks = StartTicks(pid);
  if (boot.empty() || ticks.empty()) return "";
  return boot + "/" + ticks;
}

}  // namespace

RunOwner ThisProcessAsOwner() {
  RunOwner owner;
  owner.host = HostName();
  owner.pid = ::getpid();
  owner.start = StartMark(owner.pid);
  return owner;
}

OwnerState CheckOwner(const RunOwner& owner) {
  if (owner.pid <= 0) return OwnerState::kGone;
  if (owner.host != HostName()) return OwnerState::kElsewhere;
  if (::kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno == ESRCH) return OwnerState::kGone;
  // A live PID may be another process by now (PIDs are reused, and start over at boot).
  if (!owner.start.empty()) {
    const std::string now = StartMark(owner.pid);
    if (!now.empty() && now != owner.start) return OwnerState::kGone;
  }
  return OwnerState::kAlive;
}

}  // namespace nasperf
