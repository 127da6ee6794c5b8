// The iSCSI row's code (proto/schemes.h): its target and its engine; nasperf_provide_iscsi
// is the plugin's entry point.
#include "proto/iscsi/iscsi_engine.h"
#include "proto/iscsi/iscsi_target.h"
#include "proto/schemes.h"

namespace nasperf {
namespace {

Result<std::unique_ptr<Engine>> MakeIscsiEngine() { return std::unique_ptr<Engine>(new IscsiEngine()); }

}  // namespace
}  // namespace nasperf

extern "C" void nasperf_provide_iscsi() {
  nasperf::ProvideSchemeCode("iscsi", {&nasperf::IscsiTarget::Make, &nasperf::MakeIscsiEngine, nullptr});
}
