// AppRunRanks on MPI (suite/app/app_run.h): an app workload (file-copy, dir-copy) run by
// every rank of mpirun on its own workspace of one target. Every rank meets the others at
// a barrier right before its clock; each runs its whole dataset (no stonewall: a copy cut
// short is not a copy), sends rank 0 its run and per-operation histograms, and rank 0
// merges them: bytes and files of every rank over the span from the first rank's start to
// the last rank's end, operation latencies from the summed histograms. Then rank 0 tells
// every rank whether the merged run was whole, so every rank stops a set (--repeat,
// dir-copy's reference file-copy) at the same run. Each run is an epoch with tags of its
// own (RankTag), as RankRunner's jobs are.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cluster/comm.h"
#include "cluster/rank_merge.h"
#include "suite/app/app_run.h"

namespace nasperf {

class AppRankRunner final : public AppRunRanks {
 public:
  // `remove_lost`: rank 0 calls it with the own-file prefix of each rank that sent no
  // result (killed), to remove what that rank left (target/local_app_fs.h,
  // RemoveLostWorkspaces). The other ranks send rank 0 their prefix here, before any run.
  explicit AppRankRunner(Comm& comm, std::function<void(const std::string& prefix)> remove_lost = {});
  Status BeforeClock() override;
  RunResult AfterRun(RunResult own, const OpHistograms* op_times, Status* status) override;

 private:
  int Tag(int base) const;
  // Rank 0: every rank's run of this epoch (Ctrl-C: those that arrived within
  // kInterruptedWaitMs; the others are named missing by the merge).
  void Gather(std::vector<RankRun>& ranks, std::vector<std::optional<OpHistograms>>& ops);

  Comm& comm_;
  std::function<void(const std::string&)> remove_lost_;
  std::vector<std::string> prefixes_;  // rank 0: each rank's own-file prefix, by rank
  int epoch_ = 0;
  bool met_ = false;  // this epoch's barrier was met
  int64_t start_realtime_ns_ = 0;
};

// Rank 0's merge of every rank's app run (by rank; `ops` beside it): MergeRanks for the
// directions and the ranks' facts, then the app figures summed over the ranks' span.
RunResult MergeAppRanks(const std::vector<RankRun>& ranks, const std::vector<std::optional<OpHistograms>>& ops);

}  // namespace nasperf
