// AppRankRunner (cluster/app_rank_runner.h).
#include "cluster/app_rank_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "base/clock.h"
#include "base/signals.h"
#include "cluster/rank_payload.h"
#include "cluster/rank_runner.h"

namespace nasperf {
namespace {

// The ranks' verdict says the merged run's failure; a whole run's is "0".
std::string Verdict(const Status& merged) { return merged.ok() ? "0" : "1" + merged.message(); }

}  // namespace

AppRankRunner::AppRankRunner(Comm& comm, std::function<void(const std::string& prefix)> remove_lost)
    : comm_(comm), remove_lost_(std::move(remove_lost)), prefixes_(static_cast<size_t>(comm.size())) {
  if (comm_.rank() != 0) comm_.Send(0, kTagHello, OwnPrefix());
}

int AppRankRunner::Tag(int base) const { return RankTag(base, epoch_); }

Status AppRankRunner::BeforeClock() {
  met_ = true;
  Status s = comm_.Barrier(InterruptRequested);
  start_realtime_ns_ = RealtimeNs();
  return s;
}

void AppRankRunner::Gather(std::vector<RankRun>& ranks, std::vector<std::optional<OpHistograms>>& ops) {
  int missing = comm_.size() - 1;
  int64_t interrupted_at_ms = 0;
  while (missing > 0) {
    while (std::optional<RankMessage> m = comm_.Poll(Tag(kTagResult))) {
      const size_t from = static_cast<size_t>(m->from);
      if (m->from <= 0 || m->from >= comm_.size() || ranks[from].reported) continue;
      Result<RankRun> decoded = DecodeAppRankRun(m->bytes, &ops[from]);
      if (decoded.ok()) {
        ranks[from] = std::move(decoded.value());
      } else {
        ranks[from].reported = true;
        ranks[from].run.partial = true;
        ranks[from].run.error = decoded.status().message();
      }
      ranks[from].rank = m->from;
      --missing;
    }
    if (missing == 0) break;
    // A rank that died makes mpirun end the others with SIGTERM: store what arrived.
    if (!interrupted_at_ms && InterruptRequested()) interrupted_at_ms = MonotonicMs();
    if (interrupted_at_ms && MonotonicMs() - interrupted_at_ms > kInterruptedWaitMs) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

RunResult AppRankRunner::AfterRun(RunResult own, const OpHistograms* op_times, Status* status) {
  // A body that failed before its clock still meets the others, so no rank waits forever.
  if (!met_) (void)BeforeClock();
  met_ = false;
  RankRun mine;
  mine.rank = comm_.rank();
  mine.reported = true;
  mine.host = HostName();
  mine.start_realtime_ns = start_realtime_ns_;
  mine.run = own;
  if (comm_.rank() != 0) {
    comm_.Send(0, Tag(kTagResult), EncodeAppRankRun(mine, op_times));
    comm_.Flush(kRankResultWaitMs);
    if (Status verdict = AwaitRankVerdict(comm_, Tag(kTagVerdict)); !verdict.ok() && status->ok()) {
      *status = verdict;
      own.partial = true;
      own.error = "stopped: " + verdict.message();
    }
    ++epoch_;
    return own;
  }
  std::vector<RankRun> ranks(static_cast<size_t>(comm_.size()));
  std::vector<std::optional<OpHistograms>> ops(ranks.size());
  for (int r = 0; r < comm_.size(); ++r) ranks[static_cast<size_t>(r)].rank = r;
  ranks[0] = std::move(mine);
  if (op_times) ops[0] = *op_times;
  Gather(ranks, ops);
  while (std::optional<RankMessage> m = comm_.Poll(kTagHello))
    if (m->from > 0 && m->from < comm_.size()) prefixes_[static_cast<size_t>(m->from)] = m->bytes;
  if (remove_lost_)
    for (const RankRun& r : ranks)
      if (!r.reported && !prefixes_[static_cast<size_t>(r.rank)].empty()) remove_lost_(prefixes_[static_cast<size_t>(r.rank)]);
  RunResult merged = MergeAppRanks(ranks, ops);
  if (status->ok() && merged.partial) *status = Status::Io(merged.error);
  for (int r = 1; r < comm_.size(); ++r) comm_.Send(r, Tag(kTagVerdict), Verdict(*status));
  ++epoch_;
  return merged;
}

RunResult MergeAppRanks(const std::vector<RankRun>& ranks, const std::vector<std::optional<OpHistograms>>& ops) {
  RunResult merged = MergeRanks(ranks, /*stonewall=*/false);
  const RankRun& first = ranks.front();
  if (!first.run.app) return merged;
  AppFigures app = *first.run.app;
  uint64_t bytes = 0, files = 0;
  uint32_t threads = 0;
  double source_mb = 0;  // backup, restore: every rank's source (tree) MB
  std::vector<AppStream> streams;  // video: every rank's, numbered on from the rank before
  int64_t earliest = std::numeric_limits<int64_t>::max(), latest = std::numeric_limits<int64_t>::min();
  OpHistograms times;
  bool any_ops = false;
  std::vector<std::string> cache_states, write_flushes;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankRun& r = ranks[i];
    if (!r.reported || !r.run.app) continue;
    bytes += r.run.app->bytes;
    files += r.run.app->files;
    threads += r.run.app->threads;
    for (AppStream s : r.run.app->streams) {
      s.index = static_cast<uint32_t>(streams.size());
      streams.push_back(s);
    }
    if (r.run.app->source_mb_per_s) source_mb += *r.run.app->source_mb_per_s * r.run.app->elapsed_s;
    earliest = std::min(earliest, r.start_realtime_ns);
    latest = std::max(latest, r.start_realtime_ns + static_cast<int64_t>(r.run.app->elapsed_s * 1e9));
    if (ops[i]) {
      MergeOpHistograms(times, *ops[i]);
      any_ops = true;
    }
    if (std::find(cache_states.begin(), cache_states.end(), r.run.app->cache_state) == cache_states.end())
      cache_states.push_back(r.run.app->cache_state);
    if (!r.run.app->write_flush.empty() &&
        std::find(write_flushes.begin(), write_flushes.end(), r.run.app->write_flush) == write_flushes.end())
      write_flushes.push_back(r.run.app->write_flush);
  }
  app.bytes = bytes;
  app.files = files;
  app.threads = threads;  // every rank's workers (office: users; video: streams) ran at once
  app.streams = std::move(streams);
  app.elapsed_s = latest > earliest ? static_cast<double>(latest - earliest) / 1e9 : 0;
  if (app.source_mb_per_s) app.source_mb_per_s = app.elapsed_s > 0 ? source_mb / app.elapsed_s : 0;
  app.mb_per_s = app.elapsed_s > 0 ? app.bytes / app.elapsed_s / 1e6 : 0;
  if (app.files_per_s) app.files_per_s = app.elapsed_s > 0 ? app.files / app.elapsed_s : 0;
  // Percentiles of the summed histograms; rank 0's own when no rank kept any.
  if (any_ops) app.ops = OpHistogramFigures(times);
  // office: every rank's operations over the span (each rank's own rate is ops / its time).
  if (app.ops_per_s && any_ops) app.ops_per_s = app.elapsed_s > 0 ? OpHistogramCount(times) / app.elapsed_s : 0;
  // Each rank judged its own data against its RAM; ranks that disagree make it unknown.
  app.cache_state = cache_states.size() == 1 ? cache_states.front() : "unknown";
  // Ranks that flushed beside ranks that did not: some of the merged files were flushed.
  app.write_flush = write_flushes.empty()      ? ""
                    : write_flushes.size() == 1 ? write_flushes.front()
                                                : std::string(kWriteFlushSome);
  // dir-copy's penalty: rank 0 divided the merged reference file-copy by its own dir-copy;
  // the merged one divides it by the merged dir-copy.
  if (app.small_file_penalty && first.run.app->mb_per_s > 0 && app.mb_per_s > 0)
    app.small_file_penalty = *app.small_file_penalty * first.run.app->mb_per_s / app.mb_per_s;
  merged.app = app;
  // Without read or write figures (office, photo-album) every byte over the span is the app's.
  if (merged.cluster && !merged.read && !merged.write) merged.cluster->last_done_mb_per_s = app.mb_per_s;
  merged.notes.push_back(fmt::format(
      "app figures: every rank's bytes and files over {:.3f} s, from the first rank's start to the last rank's end "
      "(no stonewall: each rank copies its whole dataset, its own, from its own seed; the dataset shown is rank 0's)",
      app.elapsed_s));
  return merged;
}

}  // namespace nasperf
