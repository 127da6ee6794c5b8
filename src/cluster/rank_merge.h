// The many-clients aggregate: every rank's run merged into the one result rank 0 prints
// and stores — the stonewall window, first- and last-done figures, latency from the
// merged histograms, per-rank figures, the spread, and which rank failed. Pure: no MPI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nasperf/result.h"

namespace nasperf {

// One rank's run as rank 0 received it (or did not).
struct RankRun {
  int rank = 0;
  bool reported = false;  // false: nothing arrived from it
  std::string host;
  std::optional<RankNic> nic;     // the NIC towards its target (cluster/rank_nic.h)
  std::optional<RankRegion> region;  // its region of a file or device shared by the ranks
  int64_t start_realtime_ns = 0;  // its clock's start (after any ramp), CLOCK_REALTIME
  // Its directions, per-size rows and pacing service times carry their histograms; its
  // cold-read check (RunHooks::add_session_facts) is `run.cached` and `cold_read`, the
  // note, kept apart from run.notes so that no rank's check reads as the merged run's.
  RunResult run;
  std::string cold_read;
};

// The spread flag's threshold: fastest over slowest more than this, in percent.
inline constexpr double kRankSpreadFlagPct = 10.0;

// Merges `ranks` (one entry per launched rank, by rank) into one run, starting from rank
// 0's (labels, job, inventory). `stonewall`: whether ranks were stopped when the first
// finished. The result is partial, its error naming the first failed or missing rank,
// when any rank was partial or did not report. Per-size rows and pacing facts are merged
// as the directions are (counts summed, rates the sum of the ranks', latency and service
// time from the summed buckets); the job's rates are the sum of the ranks' shares. Each
// rank's seed and cold-read check stay its own (cluster.each[]); the run's seed is kept
// only when every rank ran with that one, and `cached` says true when any rank's reads
// were cached, false when every rank's check found them cold.
RunResult MergeRanks(const std::vector<RankRun>& ranks, bool stonewall);

// The histogram every rank's direction adds up to (buckets summed); null when none has one.
std::shared_ptr<const LatencyHistogram> MergedHistogram(const std::vector<const DirectionResult*>& directions);

}  // namespace nasperf
