// The many-clients seam: which rank this process is among how many, and the few
// exchanges nasperf needs between ranks (a barrier, tagged messages of plain bytes, an
// abort). MPI lives behind it (mpi_comm.cpp, the only file that includes mpi.h); a fake
// stands in for it in tests.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

struct RankMessage {
  int from = 0;
  std::string bytes;
};

// One process's view of the ranks. Not thread-safe: the thread that made it calls it
// (the runner's watching thread is the thread that runs the job).
class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Returns once every rank has arrived (Ok), or as soon as `give_up` (polled about every
  // millisecond) returns true: then Interrupted, and the barrier stays posted so that
  // the ranks still waiting in it are released when this rank's peers arrive.
  virtual Status Barrier(const std::function<bool()>& give_up) = 0;
  // Sends `bytes` to rank `to` under `tag` without waiting; the bytes are kept until
  // delivered.
  virtual void Send(int to, int tag, std::string bytes) = 0;
  // A message under `tag` from any rank, if one has arrived; never waits.
  virtual std::optional<RankMessage> Poll(int tag) = 0;
  // Waits up to `timeout_ms` for this rank's sends to be delivered; false when some were
  // not (the receiver gone).
  virtual bool Flush(int64_t timeout_ms) = 0;
  // Ends every rank now (mpirun kills the others), exit status `code`.
  [[noreturn]] virtual void Abort(int code) = 0;
};

// Whether mpirun (Open MPI, or a PMIx launcher) started this process: read from the
// environment only, before anything initialises MPI.
bool LaunchedByMpirun();

// Joins the ranks: MPI_Init and the world communicator. Only when LaunchedByMpirun();
// otherwise (or in a build without MPI) nasperf is one process and never calls MPI.
// BadInput "built without MPI" when launched by mpirun in a build without it.
Result<std::unique_ptr<Comm>> JoinRanks();

// Whether this build has MPI (NASPERF_MPI).
bool BuiltWithMpi();

}  // namespace nasperf
