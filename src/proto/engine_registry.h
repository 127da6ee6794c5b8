// The engine registry: the local engines (engine/local_engines.h) and one per protocol
// scheme (proto/schemes.h), by name. A protocol's engine is loaded on first use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nasperf/engine.h"

namespace nasperf {

Result<std::unique_ptr<Engine>> MakeEngine(const std::string& name);
// The names MakeEngine knows in this build, in the order help text lists them.
std::vector<std::string> EngineNames();

}  // namespace nasperf
