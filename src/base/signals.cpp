// Signal flag; the only process-wide state nasperf keeps, because a signal handler can
// reach nothing else.
#include "base/signals.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include <atomic>

namespace nasperf {
namespace {

std::atomic<int> g_signal{0};

void OnSignal(int sig) { g_signal.store(sig, std::memory_order_relaxed); }

}  // namespace

void InstallInterruptHandler() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking wait returns EINTR and the loop re-checks
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

bool InterruptRequested() { return g_signal.load(std::memory_order_relaxed) != 0; }
int InterruptSignal() { return g_signal.load(std::memory_order_relaxed); }
void ClearInterrupt() { g_signal.store(0, std::memory_order_relaxed); }

bool FollowAgentParent() {
  const char* text = std::getenv(kAgentParentEnv);
  if (!text || !*text) return true;
  char* end = nullptr;
  const long agent = std::strtol(text, &end, 10);
  if (*end != '\0' || agent <= 1) return true;  // not an agent's value: nothing to follow
  (void)::prctl(PR_SET_PDEATHSIG, SIGTERM);
  // The agent may have died between the spawn and the prctl: then this process already
  // has another parent, and no signal will come.
  return ::getppid() == static_cast<pid_t>(agent);
}

}  // namespace nasperf
