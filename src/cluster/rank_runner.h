// A JobRunner for one rank of many (mpirun): runs the job on the rank's own target
// between the ranks' start barrier and the stonewall, then, on rank 0, gathers every
// rank's run and returns the merged one (cluster/rank_merge.h); other ranks return their
// own run, which their command neither prints nor stores.
#pragma once

#include <string>
#include <vector>

#include "cluster/comm.h"
#include "cluster/rank_merge.h"
#include "suite/job_site.h"

namespace nasperf {

// How long rank 0 waits for the results of ranks told to stop (a failure, the stonewall,
// Ctrl-C) before it names them missing: the "ends the run for all within 5 s".
inline constexpr int64_t kRankResultWaitMs = 5000;
// After Ctrl-C or SIGTERM, much less: mpirun follows its SIGTERM with SIGKILL after 1 s
// (odls_base_sigkill_timeout), and rank 0 must store the partial run before that.
inline constexpr int64_t kInterruptedWaitMs = 300;

// The message tags between ranks.
inline constexpr int kTagDone = 1;    // rank -> 0: "0" finished, "1<why>" failed
inline constexpr int kTagStop = 2;    // 0 -> rank: "0" stonewall, "1<why>" a rank failed
inline constexpr int kTagResult = 3;  // rank -> 0: EncodeRankRun
inline constexpr int kTagHello = 4;   // rank -> 0: its own files' name prefix, before any is made
inline constexpr int kTagVerdict = 5;  // 0 -> rank: "0" the merged job was whole, "1<why>" it was not

// The tag of message kind `base` in job `epoch` of a set: kinds 1..7, 8 per job, cycling
// within MPI's smallest guaranteed tag range (MPI_TAG_UB >= 32767). Epoch 0's tags are
// the kinds themselves.
inline constexpr int kTagsPerEpoch = 8;
inline constexpr int RankTag(int base, int epoch) { return base + kTagsPerEpoch * (epoch % 4000); }

// A rank's start on the clock every host shares (CLOCK_REALTIME), and its host name.
int64_t RealtimeNs();
std::string HostName();
// ".nasperf-<host>-<pid>-<nonce>-": every own file and workspace this process makes starts so.
std::string OwnPrefix();
// Ranks other than 0: waits for rank 0's verdict under `tag` ("0" whole, "1<why>" not):
// Ok, Io(why), or Interrupted on Ctrl-C.
Status AwaitRankVerdict(Comm& comm, int tag);


class RankRunner final : public JobRunner {
 public:
  // `stonewall`: stop every rank when the first finishes (--stonewall on, the default).
  // `directory`: the target when it is a local directory ("" otherwise): rank 0 removes
  // there the own files of a rank that died without a result (they are unlocked then).
  RankRunner(JobRunner& inner, Comm& comm, bool stonewall, std::string directory = "")
      : inner_(inner), comm_(comm), stonewall_(stonewall), directory_(std::move(directory)) {}
  Target& target() override { return inner_.target(); }
  std::string measured_on() const override { return inner_.measured_on(); }
  // One job on every rank. A set of jobs (quick) calls it once per job, on every rank in
  // the same order: each call is an epoch whose messages carry its own tags, so a stop
  // that arrives late from one job never ends the next. Every rank returns only when rank
  // 0 has merged the job and said whether it was whole (kTagVerdict); a rank told it was
  // not returns that failure, so every rank stops the set at the same job.
  RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) override;

 private:
  RunOutcome RunOnce(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks);
  // The per-job state back to its start.
  void BeginEpoch();
  int Tag(int base) const { return RankTag(base, epoch_); }

  // Reads the ranks' messages: on rank 0 done reports (relayed as a stop), elsewhere stops.
  void PollPeers();
  // Rank 0: tells every other rank to stop, once; `failure` empty for the stonewall.
  void BroadcastStop(const std::string& failure);
  // Rank 0: every other rank's run, waiting while they run (and at most
  // kRankResultWaitMs once they were told to stop or Ctrl-C came).
  std::vector<RankRun> Gather(RankRun own);
  // Rank 0: removes the files of ranks that sent no result, by their name prefix.
  void RemoveLostFiles(const std::vector<RankRun>& ranks);

  JobRunner& inner_;
  Comm& comm_;
  bool stonewall_;
  std::string directory_;
  std::vector<std::string> prefixes_;  // rank 0: each rank's own-file name prefix, by rank
  bool stop_ = false;                  // this rank's workers should stop
  bool peer_failed_ = false;           // ... because a rank failed (failure_ says which and why)
  std::string failure_;
  bool broadcast_ = false;  // rank 0: the stop went out
  int64_t broadcast_at_ms_ = 0;
  int epoch_ = 0;                  // jobs run so far
};

}  // namespace nasperf
