// The protocol loader of binaries linked with every protocol's code (the test binaries,
// the fuzzers): each built protocol provides its code the first time any is asked for.
#include <mutex>

#include "proto/schemes.h"

extern "C" void nasperf_provide_smb();
extern "C" void nasperf_provide_nfs();
extern "C" void nasperf_provide_iscsi();

namespace nasperf {

Status LoadSchemeCode(const Scheme& scheme) {
  static std::once_flag once;
  std::call_once(once, [] {
#if NASPERF_WITH_SMB
    nasperf_provide_smb();
#endif
#if NASPERF_WITH_NFS
    nasperf_provide_nfs();
#endif
#if NASPERF_WITH_ISCSI
    nasperf_provide_iscsi();
#endif
  });
  return Status::Ok();
}

}  // namespace nasperf
