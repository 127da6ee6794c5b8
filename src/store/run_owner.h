// Which process is measuring a stored run, and whether it still is: so that `results rm`
// refuses a run in progress and still removes one whose process was killed outright.
#pragma once

#include <cstdint>
#include <string>

namespace nasperf {

// Recorded with a run from BeginRun until FinishRun. The start mark (boot id and the
// process's start time in clock ticks) tells a reused PID, or one from before a reboot,
// from the process that began the run.
struct RunOwner {
  std::string host;  // gethostname()
  int64_t pid = 0;
  std::string start;  // "<boot id>/<start ticks>"; empty when /proc could not say
};

enum class OwnerState {
  kAlive,      // that very process still runs on this host
  kGone,       // it ended (or the host rebooted): the run will never be finished
  kElsewhere,  // another host: this one cannot tell
};

RunOwner ThisProcessAsOwner();
OwnerState CheckOwner(const RunOwner& owner);

}  // namespace nasperf
