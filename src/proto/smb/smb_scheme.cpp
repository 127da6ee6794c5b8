// The SMB row's code (proto/schemes.h): its target, its engine and the helper process's
// hidden command; nasperf_provide_smb is the plugin's entry point.
#include <sys/prctl.h>

#include <csignal>

#include "proto/schemes.h"
#include "proto/smb/smb_app_fs.h"
#include "proto/smb/smb_engine.h"
#include "proto/smb/smb_io_helper.h"
#include "proto/smb/smb_target.h"

namespace nasperf {
namespace {

Result<std::unique_ptr<Target>> MakeSmbTarget(const ProtocolUrl& url, const TargetOptions& options) {
  Result<std::unique_ptr<SmbTarget>> smb = SmbTarget::Make(url, options);
  if (!smb.ok()) return smb.status();
  return std::unique_ptr<Target>(std::move(smb).value());
}

Result<std::unique_ptr<Engine>> MakeSmbEngine() { return std::unique_ptr<Engine>(new SmbEngine()); }

// `nasperf smb-io-helper`: the process that holds one SMB session when several workers
// run (smb_io_helper.h). Its socket is fd 3, its shared buffers fd 4.
int RunSmbHelperCommand() {
  // Ctrl-C reaches the whole process group; the parent decides what it means and
  // closes the socket, which ends this process after the request in flight.
  std::signal(SIGINT, SIG_IGN);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  return RunSmbIoHelper(3, 4);
}

}  // namespace
}  // namespace nasperf

extern "C" void nasperf_provide_smb() {
  nasperf::ProvideSchemeCode("smb", {&nasperf::MakeSmbTarget, &nasperf::MakeSmbEngine, &nasperf::RunSmbHelperCommand,
                                     &nasperf::MakeSmbAppFs});
}
