// The agent's side of JobStart suite "app": one application workload (`nasperf app NAME`)
// run on the agent's own directories, so a reviewer measures the NAS's volume from inside.
//
// The workload runs in a child process of the agent's own binary (`app NAME ... --json
// --no-store`): its interrupt handling and cleanup are the command's own, a crash cannot
// take the agent down, and JobCancel is a SIGINT to that child's PID. What the client may
// ask is checked here first, option by option, against one list per workload: only the
// workload's own options, never a store, a protocol, a password or a path outside --root.
// Every directory is resolved beneath --root (root_path.h) and handed to the child as an
// open descriptor (/dev/fd/N), never by name: a path swapped for a link after the check
// cannot redirect it. The child's document names those descriptors; the agent puts back
// the directories' real paths before it answers.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "agent/agent_job.h"
#include "agent/root_path.h"
#include "wire/messages.h"

namespace nasperf {

struct AgentAppRequest {
  std::string workload;
  std::vector<std::string> args;  // after `app WORKLOAD`: --name=value tokens and TARGET
  std::vector<ResolvedDir> dirs;  // dirs[i] is descriptor kFirstAppDirFd + i in the child
  ResolvedDir cwd;                // the child's working directory: the JobStart's dir
};
inline constexpr int kFirstAppDirFd = 10;

// The JobStart's app request checked and its directories resolved beneath `root`. An
// unknown workload or option, a value where a flag belongs → BadInput; a refused path →
// BadInput with *path_error set.
Result<AgentAppRequest> PrepareApp(const JobStartMsg& start, const RootDir& root, bool* path_error);

// Runs the request's child on the calling thread until it exits. `cancel` sends it SIGINT
// (and SIGKILL 15 s later). The runs of its document come back with measured_on "nas" and
// the agent's telemetry while it ran; a child that printed no document gives its last
// line on stderr as the status (BadInput when it exited 2).
AgentJobOutcome RunAgentApp(const AgentAppRequest& request, const std::atomic<bool>& cancel);

// The child's document with every "/dev/fd/N" of `request`'s directories replaced by the
// directory's real path (exposed for its test).
void ShowRealPaths(nlohmann::json& document, const AgentAppRequest& request);

}  // namespace nasperf
