// The NFS row's code (proto/schemes.h): its target and its engine; nasperf_provide_nfs is
// the plugin's entry point.
#include "proto/nfs/nfs_app_fs.h"
#include "proto/nfs/nfs_engine.h"
#include "proto/nfs/nfs_target.h"
#include "proto/schemes.h"

namespace nasperf {
namespace {

Result<std::unique_ptr<Target>> MakeNfsTarget(const ProtocolUrl& url, const TargetOptions& options) {
  return std::unique_ptr<Target>(new NfsTarget(url, options.connect_timeout_ms));
}

Result<std::unique_ptr<Engine>> MakeNfsEngine() { return std::unique_ptr<Engine>(new NfsEngine()); }

}  // namespace
}  // namespace nasperf

extern "C" void nasperf_provide_nfs() {
  nasperf::ProvideSchemeCode("nfs", {&nasperf::MakeNfsTarget, &nasperf::MakeNfsEngine, nullptr, &nasperf::MakeNfsAppFs});
}
