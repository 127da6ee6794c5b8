// The engine registry: the local engines and the protocol engines, by name.
#include "engine/local_engines.h"
#include "nasperf/engine.h"
#include "proto/iscsi/iscsi_engine.h"
#include "proto/nfs/nfs_engine.h"
#include "proto/smb/smb_engine.h"

namespace nasperf {

Result<std::unique_ptr<Engine>> MakeEngine(const std::string& name) {
  Result<std::unique_ptr<Engine>> local = MakeLocalEngine(name);
  if (!local.ok() || local.value()) return local;
  if (name == "nfs") return std::unique_ptr<Engine>(new NfsEngine());
  if (name == "iscsi") return std::unique_ptr<Engine>(new IscsiEngine());
  if (name == "smb") return std::unique_ptr<Engine>(new SmbEngine());
  return Status::BadInput("--engine: '" + name + "' is not an engine built into this nasperf");
}

std::vector<std::string> EngineNames() {
  std::vector<std::string> names = {"psync"};
#ifdef NASPERF_WITH_IO_URING
  names.push_back("io_uring");
#endif
  names.insert(names.end(), {"null", "nfs", "iscsi", "smb"});
  return names;
}

}  // namespace nasperf
