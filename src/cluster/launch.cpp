// LaunchedByMpirun: the launcher's environment, read before MPI is touched.
#include <cstdlib>
#include <string>

#include "cluster/comm.h"

namespace nasperf {

bool LaunchedByMpirun() {
  // Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx launchers (srun, prterun) PMIX_RANK.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK"}) {
    const char* value = std::getenv(name);
    if (value && *value) return true;
  }
  return false;
}

}  // namespace nasperf
