// The engine registry: the one list of engines, and the only #if about which exist.
#include "engine/null/null_engine.h"
#include "engine/psync/psync_engine.h"
#include "nasperf/engine.h"
#include "proto/iscsi/iscsi_engine.h"
#include "proto/nfs/nfs_engine.h"
#include "proto/smb/smb_engine.h"
#ifdef NASPERF_WITH_IO_URING
#include <liburing.h>

#include "engine/io_uring/io_uring_engine.h"
#endif

namespace nasperf {

bool IoUringAvailable() {
#ifdef NASPERF_WITH_IO_URING
  // Probing with a tiny ring is the only reliable test: io_uring_disabled and seccomp
  // filters are invisible otherwise.
  static const bool available = [] {
    io_uring ring;
    if (io_uring_queue_init(2, &ring, 0) != 0) return false;
    io_uring_queue_exit(&ring);
    return true;
  }();
  return available;
#else
  return false;
#endif
}

Result<std::unique_ptr<Engine>> MakeEngine(const std::string& name) {
  if (name == "psync") return std::unique_ptr<Engine>(new PsyncEngine());
  if (name == "null") return std::unique_ptr<Engine>(new NullEngine());
  if (name == "nfs") return std::unique_ptr<Engine>(new NfsEngine());
  if (name == "iscsi") return std::unique_ptr<Engine>(new IscsiEngine());
  if (name == "smb") return std::unique_ptr<Engine>(new SmbEngine());
#ifdef NASPERF_WITH_IO_URING
  if (name == "io_uring") {
    if (!IoUringAvailable()) return Status::Unavailable("--engine io_uring: io_uring is not available on this kernel");
    return std::unique_ptr<Engine>(new IoUringEngine());
  }
#endif
  return Status::BadInput("--engine: '" + name + "' is not an engine built into this nasperf");
}

}  // namespace nasperf
