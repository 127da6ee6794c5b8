// Signal flag; the only process-wide state nasperf keeps, because a signal handler can
// reach nothing else.
#include "base/signals.h"

#include <csignal>

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

}  // namespace nasperf
