// The local engines, and the only #if about which exist.
#include "engine/local_engines.h"

#include "engine/null/null_engine.h"
#include "engine/psync/psync_engine.h"
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

Result<std::unique_ptr<Engine>> MakeLocalEngine(const std::string& name) {
  if (name == "psync") return std::unique_ptr<Engine>(new PsyncEngine());
  if (name == "null") return std::unique_ptr<Engine>(new NullEngine());
#ifdef NASPERF_WITH_IO_URING
  if (name == "io_uring") {
    if (!IoUringAvailable()) return Status::Unavailable("--engine io_uring: io_uring is not available on this kernel");
    return std::unique_ptr<Engine>(new IoUringEngine());
  }
#endif
  return std::unique_ptr<Engine>();
}

std::vector<std::string> LocalEngineNames() {
  std::vector<std::string> names = {"psync"};
#ifdef NASPERF_WITH_IO_URING
  names.push_back("io_uring");
#endif
  names.push_back("null");
  return names;
}

std::string ResolveEngineName(const JobSpec& job, bool is_null_target) {
  if (is_null_target) return "null";
  if (job.engine != "auto") return job.engine;
  return job.qd > 1 && IoUringAvailable() ? "io_uring" : "psync";
}

}  // namespace nasperf
