// Comm on MPI (Open MPI from Debian): the only file that includes mpi.h. Every wait is a
// poll of a non-blocking call, so a rank can give up on a barrier (a peer failed, Ctrl-C)
// and a lost peer never hangs the others.
// Open MPI's C++ bindings are not used; only the C API.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <thread>

#include "cluster/comm.h"

namespace nasperf {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(1);

class MpiComm final : public Comm {
 public:
  MpiComm() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // Errors come back as values (a lost peer), not as the default abort of every rank.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  ~MpiComm() override {
    Flush(1000);
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  Status Barrier(const std::function<bool()>& give_up) override {
    MPI_Request request;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &request) != MPI_SUCCESS) return Status::Io("MPI barrier failed");
    while (true) {
      int done = 0;
      if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return Status::Io("MPI barrier failed");
      if (done) return Status::Ok();
      if (give_up && give_up()) return Status::Interrupted();
      std::this_thread::sleep_for(kPollInterval);
    }
  }

  void Send(int to, int tag, std::string bytes) override {
    pending_.push_back(Pending{std::make_unique<std::string>(std::move(bytes)), MPI_REQUEST_NULL});
    Pending& p = pending_.back();
    MPI_Isend(p.bytes->data(), static_cast<int>(p.bytes->size()), MPI_BYTE, to, tag, MPI_COMM_WORLD, &p.request);
    Reap();
  }

  std::optional<RankMessage> Poll(int tag) override {
    int arrived = 0;
    MPI_Status status;
    if (MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &arrived, &status) != MPI_SUCCESS || !arrived)
      return std::nullopt;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    RankMessage m;
    m.from = status.MPI_SOURCE;
    m.bytes.resize(static_cast<size_t>(count));
    if (MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS)
      return std::nullopt;
    return m;
  }

  bool Flush(int64_t timeout_ms) override {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
      Reap();
      if (pending_.empty()) return true;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(kPollInterval);
    }
  }

  [[noreturn]] void Abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
  }

 private:
  struct Pending {
    std::unique_ptr<std::string> bytes;  // stays put while MPI holds its address
    MPI_Request request;
  };
  // Forgets the sends that were delivered.
  void Reap() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? pending_.erase(it) : it + 1;
    }
  }
  int rank_ = 0, size_ = 1;
  std::deque<Pending> pending_;
};

}  // namespace

bool BuiltWithMpi() { return true; }

Result<std::unique_ptr<Comm>> JoinRanks() {
  int provided = 0;
  // One thread (the one running the job's watch loop) makes every MPI call.
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return Status::Unavailable("MPI_Init failed: is this process started by mpirun?");
  return std::unique_ptr<Comm>(new MpiComm());
}

}  // namespace nasperf
