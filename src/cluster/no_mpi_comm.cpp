// JoinRanks in a build without MPI (NASPERF_MPI off): under mpirun each process would
// think itself alone and store a result of its own, so it refuses instead.
#include "cluster/comm.h"

namespace nasperf {

bool BuiltWithMpi() { return false; }

Result<std::unique_ptr<Comm>> JoinRanks() {
  return Status::BadInput("started by mpirun, but this nasperf was built without MPI (cmake -DNASPERF_MPI=ON)");
}

}  // namespace nasperf
