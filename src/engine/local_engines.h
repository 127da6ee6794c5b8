// The engines that run on this machine's own files and devices (psync, io_uring, null);
// MakeEngine (proto/engine_registry.h) adds the protocol engines to them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nasperf/engine.h"
#include "nasperf/job.h"

namespace nasperf {

// The local engine called `name`; nullptr when no local engine has that name, and an
// Unavailable error for io_uring on a kernel that refuses it.
Result<std::unique_ptr<Engine>> MakeLocalEngine(const std::string& name);

// The local engines' names in this build, in the order help text lists them.
std::vector<std::string> LocalEngineNames();

// Whether the io_uring engine can run here (kernel support, not disabled by sysctl).
bool IoUringAvailable();

// Engine chosen for "auto": io_uring when qd > 1 and the kernel allows it.
std::string ResolveEngineName(const JobSpec& job, bool is_null_target);

}  // namespace nasperf
