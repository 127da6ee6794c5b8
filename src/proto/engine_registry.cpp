// The engine registry: the local engines, then one engine per protocol scheme (its code
// loaded on first use), by name.
#include "proto/engine_registry.h"

#include "engine/local_engines.h"
#include "proto/schemes.h"

namespace nasperf {

Result<std::unique_ptr<Engine>> MakeEngine(const std::string& name) {
  Result<std::unique_ptr<Engine>> local = MakeLocalEngine(name);
  if (!local.ok() || local.value()) return local;
  if (const Scheme* scheme = FindScheme(name); scheme && scheme->built) {
    Result<const SchemeCode*> code = LoadScheme(*scheme);
    if (!code.ok()) return code.status();
    if (code.value()->make_engine) return code.value()->make_engine();
  }
  return Status::BadInput("--engine: '" + name + "' is not an engine built into this nasperf");
}

std::vector<std::string> EngineNames() {
  std::vector<std::string> names = LocalEngineNames();
  for (const Scheme& scheme : Schemes())
    if (scheme.built) names.push_back(scheme.name);
  return names;
}

}  // namespace nasperf
