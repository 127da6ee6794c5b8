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

// The environment variable an agent sets for the workload it starts: its own PID.
inline constexpr const char* kAgentParentEnv = "NASPERF_AGENT_PARENT";
// In a workload an agent started (kAgentParentEnv set): asks the kernel for SIGTERM when
// the agent dies, so that a SIGKILLed agent's workload still stops and removes its files
// (the handler above turns it into the interrupt). False when the agent is already gone
// (this process was re-parented before it asked): the caller stops at once.
bool FollowAgentParent();

}  // namespace nasperf
