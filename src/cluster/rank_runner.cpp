// RankRunner: the start barrier, the stonewall and failure stops, the gather to rank 0.
#include "cluster/rank_runner.h"

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "base/clock.h"
#include "base/signals.h"
#include "cluster/rank_nic.h"
#include "cluster/rank_payload.h"
#include "target/own_file.h"

namespace nasperf {
namespace {

std::string Why(const RunOutcome& out) {
  if (!out.result.error.empty()) return out.result.error;
  return out.status.message();
}

}  // namespace

int64_t RealtimeNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

void RankRunner::BroadcastStop(const std::string& failure) {
  if (broadcast_) return;
  broadcast_ = true;
  broadcast_at_ms_ = MonotonicMs();
  for (int r = 1; r < comm_.size(); ++r) comm_.Send(r, Tag(kTagStop), failure.empty() ? "0" : "1" + failure);
}

void RankRunner::PollPeers() {
  if (comm_.rank() == 0) {
    while (std::optional<RankMessage> m = comm_.Poll(Tag(kTagDone))) {
      const bool failed = !m->bytes.empty() && m->bytes[0] == '1';
      if (failed && !peer_failed_) {
        peer_failed_ = true;
        failure_ = "rank " + std::to_string(m->from) + " failed: " + m->bytes.substr(1);
      }
      if (failed || stonewall_) {
        stop_ = true;
        BroadcastStop(failed ? failure_ : "");
      }
    }
    return;
  }
  while (std::optional<RankMessage> m = comm_.Poll(Tag(kTagStop))) {
    stop_ = true;
    if (!m->bytes.empty() && m->bytes[0] == '1' && !peer_failed_) {
      peer_failed_ = true;
      failure_ = m->bytes.substr(1);
    }
  }
}

// ".nasperf-host-pid-nonce-": every own file this process makes starts so.
std::string OwnPrefix() {
  std::string name = OwnFileName("x", "x");
  return name.substr(0, name.rfind('-') + 1);
}

RunOutcome RankRunner::Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) {
  RunOutcome out = RunOnce(job, labels, hooks);
  ++epoch_;
  return out;
}

void RankRunner::BeginEpoch() {
  stop_ = peer_failed_ = broadcast_ = false;
  failure_.clear();
  broadcast_at_ms_ = 0;
}

Status AwaitRankVerdict(Comm& comm, int tag) {
  while (true) {
    if (std::optional<RankMessage> m = comm.Poll(tag)) {
      if (m->bytes.empty() || m->bytes[0] == '0') return Status::Ok();
      return Status::Io(m->bytes.substr(1));
    }
    if (InterruptRequested()) return Status::Interrupted();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

RunOutcome RankRunner::RunOnce(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) {
  BeginEpoch();
  if (comm_.rank() != 0) comm_.Send(0, Tag(kTagHello), OwnPrefix());
  // The per-rank inventory's NIC, read before the start line so it costs the clock nothing.
  std::optional<RankNic> nic = RankNicTowards(inner_.target().description());
  prefixes_.assign(static_cast<size_t>(comm_.size()), "");
  bool at_start = false;
  int64_t start_ns = 0;
  auto give_up = [this] {
    PollPeers();
    return peer_failed_ || InterruptRequested();
  };
  RunHooks h = hooks;
  h.before_start = [&]() -> Status {
    at_start = true;
    if (hooks.before_start) {
      if (Status s = hooks.before_start(); !s.ok()) return s;
    }
    Status met = comm_.Barrier(give_up);
    // The runner starts its clock right after this returns; the measurement after the ramp.
    start_ns = RealtimeNs() + static_cast<int64_t>(job.ramp_s * 1e9);
    if (met.ok()) return met;
    if (peer_failed_) return Status::Io(failure_);
    return met;
  };
  // The stonewall is a normal end (each rank's fsync and --verify still run); a peer's
  // failure aborts, as this rank's own failure would.
  h.stop_requested = [this] {
    PollPeers();
    if (peer_failed_) return StopKind::kAbort;
    return stop_ ? StopKind::kFinish : StopKind::kNone;
  };
  // --rate and --rate-iops are the job's total over every rank, as over every thread:
  // each rank paces its share (the merge sums the shares back).
  JobSpec share = job;
  share.pacing.rate_iops /= comm_.size();
  share.pacing.rate_mb_per_s /= comm_.size();
  h.add_session_facts = nullptr;  // added below, to this rank's own run
  RunOutcome out = inner_.Run(share, labels, h);
  // This rank's cold-read check belongs to its own run, which leaves for rank 0 before
  // the session sees it; its note is kept apart from the run's notes (RankRun::cold_read).
  std::string cold_read;
  if (hooks.add_session_facts) {
    const size_t notes_before = out.result.notes.size();
    hooks.add_session_facts(out.result);
    for (size_t i = notes_before; i < out.result.notes.size(); ++i)
      cold_read += (cold_read.empty() ? "" : "; ") + out.result.notes[i];
    out.result.notes.resize(notes_before);
  }
  const bool failed = !out.status.ok() || out.result.partial;
  // A peer's failure stopped this rank: its own figures are whole, the run is not.
  if (peer_failed_ && !failed) {
    out.result.partial = true;
    out.result.error = "stopped: " + failure_;
  }

  if (comm_.rank() == 0) {
    if (failed && !peer_failed_) {
      peer_failed_ = true;
      failure_ = "rank 0 failed: " + Why(out);
    }
    if (failed || stonewall_) BroadcastStop(failed ? failure_ : "");
  } else {
    comm_.Send(0, Tag(kTagDone), failed ? "1" + Why(out) : "0");
  }
  // A rank that failed before the start line still meets the others there, so their
  // barrier completes and no rank is left inside it.
  if (!at_start) {
    const int64_t until = MonotonicMs() + kRankResultWaitMs;
    (void)comm_.Barrier([&] { return InterruptRequested() || MonotonicMs() > until; });
  }

  RankRun own;
  own.rank = comm_.rank();
  own.reported = true;
  own.host = HostName();
  own.nic = std::move(nic);
  own.region = inner_.target().shared_region();
  own.start_realtime_ns = start_ns;
  own.run = out.result;
  own.cold_read = std::move(cold_read);
  if (comm_.rank() != 0) {
    comm_.Send(0, Tag(kTagResult), EncodeRankRun(own));
    comm_.Flush(kRankResultWaitMs);
    PollPeers();  // a stop sent after this rank finished is read, not left in flight
    // Rank 0's word on the merged run: the next run of a set starts only if it was whole.
    if (Status verdict = AwaitRankVerdict(comm_, Tag(kTagVerdict)); !verdict.ok() && out.status.ok()) {
      out.status = verdict;
      if (!out.result.partial) {
        out.result.partial = true;
        out.result.error = "stopped: " + verdict.message();
      }
    }
    return out;
  }

  std::vector<RankRun> ranks = Gather(std::move(own));
  RemoveLostFiles(ranks);
  RunOutcome merged;
  merged.result = MergeRanks(ranks, stonewall_);
  merged.status = out.status;
  if (merged.status.ok() && merged.result.partial) merged.status = Status::Io(merged.result.error);
  const std::string verdict = merged.status.ok() ? "0" : "1" + merged.status.message();
  for (int r = 1; r < comm_.size(); ++r) comm_.Send(r, Tag(kTagVerdict), verdict);
  return merged;
}

std::vector<RankRun> RankRunner::Gather(RankRun own) {
  const int n = comm_.size();
  std::vector<RankRun> ranks(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) ranks[static_cast<size_t>(r)].rank = r;
  ranks[0] = std::move(own);
  int missing = n - 1;
  int64_t interrupted_at_ms = 0;
  while (missing > 0) {
    PollPeers();
    while (std::optional<RankMessage> m = comm_.Poll(Tag(kTagResult))) {
      if (m->from <= 0 || m->from >= n || ranks[static_cast<size_t>(m->from)].reported) continue;
      Result<RankRun> decoded = DecodeRankRun(m->bytes);
      RankRun& slot = ranks[static_cast<size_t>(m->from)];
      if (decoded.ok()) {
        slot = std::move(decoded.value());
        slot.rank = m->from;
      } else {
        slot.reported = true;
        slot.run.partial = true;
        slot.run.error = decoded.status().message();
      }
      --missing;
    }
    if (missing == 0) break;
    while (std::optional<RankMessage> m = comm_.Poll(Tag(kTagHello)))
      if (m->from > 0 && m->from < n) prefixes_[static_cast<size_t>(m->from)] = m->bytes;
    if (!interrupted_at_ms && InterruptRequested()) {
      interrupted_at_ms = MonotonicMs();
      BroadcastStop("interrupted on rank 0");
    }
    if (interrupted_at_ms && MonotonicMs() - interrupted_at_ms > kInterruptedWaitMs) break;
    if (broadcast_ && MonotonicMs() - broadcast_at_ms_ > kRankResultWaitMs) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return ranks;
}

void RankRunner::RemoveLostFiles(const std::vector<RankRun>& ranks) {
  while (std::optional<RankMessage> m = comm_.Poll(Tag(kTagHello)))
    if (m->from > 0 && m->from < comm_.size()) prefixes_[static_cast<size_t>(m->from)] = m->bytes;
  if (directory_.empty()) return;
  for (const RankRun& r : ranks) {
    const std::string& prefix = prefixes_[static_cast<size_t>(r.rank)];
    if (r.reported || prefix.empty()) continue;
    Result<std::vector<StaleFile>> found = FindStaleFiles(directory_);
    if (!found.ok()) return;  // not a directory: nothing of ours to look for
    // Only that process's files, judged ours (mark, owner, one link) and unlocked.
    for (const StaleFile& f : found.value())
      if (f.name.starts_with(prefix) && f.check.verdict == Ownership::kOurs) (void)RemoveStaleFile(directory_, f.name);
  }
}

}  // namespace nasperf
