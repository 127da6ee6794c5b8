// Ctrl-C and termination requests. The handler only sets a flag; the runner polls it and
// stops the workers, and the normal unwind removes nasperf's files.
#pragma once

namespace nasperf {

// Installs the handler for SIGINT, SIGTERM and SIGHUP. Idempotent.
void InstallInterruptHandler();
// True once one of those signals arrived. Async-signal-safe to set, cheap to poll.
bool InterruptRequested();
// The signal that arrived (SIGINT ...), 0 if none.
int InterruptSignal();
// For tests: forget an earlier interrupt.
void ClearInterrupt();

}  // namespace nasperf
