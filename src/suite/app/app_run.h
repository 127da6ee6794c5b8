// What every application workload shares around its timed part: the run recorded as begun
// on the RunSink (so a run killed outright is still listed, as partial), the per-second
// timeline of its counters, and the final RunResult — app figures, the read and write
// directions that happened, the samples — stored with Finish. No printing, no store.
#pragma once

#include <atomic>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "nasperf/result.h"
#include "suite/app/copy_loop.h"
#include "suite/run_sink.h"

namespace nasperf {

// One rank of many (mpirun) around each app run; cluster/app_rank_runner.h implements it.
// Every rank meets the others right before its clock starts, and after the run rank 0
// gets the run merged from every rank's. Every rank runs the same sequence of app runs.
class AppRunRanks {
 public:
  virtual ~AppRunRanks() = default;
  // The start barrier, called by the workload's body right before its clock (or, for a
  // body that failed first, by RecordAppRun, so that the others are not left waiting).
  virtual Status BeforeClock() = 0;
  // After the run: on rank 0 the merged run, `*status` then the merged run's failure
  // when some rank failed; elsewhere `own` back, `*status` rank 0's word on the merged run.
  // `op_times`: the run's per-operation histograms (null when it kept none).
  virtual RunResult AfterRun(RunResult own, const OpHistograms* op_times, Status* status) = 0;
};

struct AppRunLabels {
  std::string name;    // --name, else the workload
  std::string target;  // what the run is listed under (the NAS end, as named)
  std::map<std::string, std::string> tags;
  nlohmann::ordered_json inventory = nlohmann::ordered_json::object();
  JobSpec job;  // the request size, threads and bytes, in the job form every run has
  std::vector<std::string> notes;  // said before the workload's own (the fill level)
  std::optional<double> fill_pct;  // --fill: the level the volume was filled to, measured
  AppRunRanks* ranks = nullptr;    // under mpirun: this process's rank (else one process)
};

// Samples `counters` once a second on its own thread, from the workload's start to its
// end, as the timeline's MB/s (10^6 B/s) of bytes read and written in each second;
// progress sees each as it is taken. Times are MonotonicNs().
class CopySampler {
 public:
  CopySampler(const CopyCounters& counters, SuiteProgress& progress) : counters_(counters), progress_(progress) {}
  ~CopySampler() { Stop(MonotonicNs()); }
  // `start_ns`: the workload's clock start, which t_s counts from.
  void Start(uint64_t start_ns);
  // `end_ns`: the workload's clock stop (its counters move no more). Stops the thread and
  // ends the timeline there: a sample the thread took after `end_ns` (it wakes up to
  // 50 ms late) is dropped, and the last, partial second is one sample at `end_ns`, its
  // rate over its own length (no sample at all when the workload moved no byte).
  void Stop(uint64_t end_ns);
  const std::vector<Sample>& samples() const { return samples_; }

 private:
  struct Snapshot {
    uint64_t ns = 0, read = 0, written = 0;
  };
  void Take(uint64_t now_ns);
  // The timeline of `snapshots_` up to `end_ns`, into samples_.
  void Build(uint64_t end_ns);
  const CopyCounters& counters_;
  SuiteProgress& progress_;
  std::vector<Snapshot> snapshots_;
  std::vector<Sample> samples_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  uint64_t start_ns_ = 0;
};

struct AppRunOutcome {
  bool began = false;  // false: the sink refused the run and nothing ran
  RunResult result;
  Status status;  // the workload's own
  Status stored;  // the sink's Finish
};

// What the body measured, turned into the run by RecordAppRun.
struct AppMeasured {
  AppFigures app;
  std::vector<Sample> samples;
  std::shared_ptr<const LatencyHistogram> read;   // the source's reads, when it was storage
  std::shared_ptr<const LatencyHistogram> write;  // the destination's writes, when it was storage
  uint64_t read_bytes = 0, written_bytes = 0;
  std::vector<std::string> notes;
  std::optional<uint64_t> verified_bytes;  // --verify: bytes read back exactly as generated
  // Per-operation histograms behind app.ops, for the merge of ranks (null: none kept).
  std::shared_ptr<const CopyOpTimes> op_times;
  // The body calls it right before its clock starts: the ranks' start barrier under
  // mpirun, nothing otherwise. A failure (Ctrl-C in the barrier) ends the body.
  std::function<Status()> before_clock = [] { return Status::Ok(); };
};

// Begins the run on `sink`, runs `body` (which fills `measured`; its Status ends the run:
// anything but Ok marks it partial with the error), then finishes it on the sink.
AppRunOutcome RecordAppRun(RunSink& sink, const AppRunLabels& labels,
                           const std::function<Status(AppMeasured& measured)>& body);

// "cold" when the data exceeds the RAM that could cache it (client's plus the NAS's; the
// NAS's known only when `nas_ram_bytes` is given) or caches were dropped on both ends,
// "warm" when it fits in RAM known on both ends and nothing dropped it, else "unknown".
// `remote_end`: an end is a network share (its server has a cache of its own).
struct CacheFacts {
  uint64_t data_bytes = 0;
  uint64_t client_ram_bytes = 0;          // 0: not known
  std::optional<uint64_t> nas_ram_bytes;  // the share's server, when known
  bool remote_end = false;
  bool client_dropped = false;  // DropClientCache emptied this machine's cache on every end
  bool client_evicted_some = false;  // a drop ran but left data resident (then not "warm")
  bool nas_dropped = false;     // an agent dropped the server's cache
};
std::string CacheStateOf(const CacheFacts& facts);

// Drops this machine's cache on each end given (nullptr: a null end, skipped), adds what
// each said to `notes` ("cache drop on /mnt/x: ..."), and sets facts.client_dropped (some
// end, and every end emptied) and facts.client_evicted_some. An end whose drop fails
// leaves the state to the RAM rule and says why in `notes`.
void DropClientCaches(std::initializer_list<AppFileSystem*> ends, CacheFacts& facts, std::vector<std::string>& notes);

}  // namespace nasperf
