// MergeRanks: the aggregate of every rank's run.
#include "cluster/rank_merge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "base/units.h"
#include "core/pacing_facts.h"
#include "core/runner.h"
#include "stats/histogram.h"
#include "stats/latency_summary.h"

namespace nasperf {
namespace {

// An app run that keeps no read or write figures (office, photo-album) ran its app time.
double OwnSeconds(const RunResult& run) {
  if (!run.read && !run.write && run.app) return run.app->elapsed_s;
  return std::max(run.read ? run.read->seconds : 0.0, run.write ? run.write->seconds : 0.0);
}

// The ranks' parts of one direction summed: bytes, I/Os, errors and each rank's own rate;
// latency from the merged buckets. nullopt when there are none.
std::optional<DirectionResult> MergeParts(const std::vector<const DirectionResult*>& parts, double seconds) {
  if (parts.empty()) return std::nullopt;
  uint64_t bytes = 0, ios = 0, errors = 0;
  double mb_per_s = 0, iops = 0;
  for (const DirectionResult* d : parts) {
    bytes += d->bytes;
    ios += d->ios;
    errors += d->errors;
    mb_per_s += d->mb_per_s;
    iops += d->iops;
  }
  DirectionResult merged = SummariseDirection(bytes, ios, seconds, errors, MergedHistogram(parts));
  // The sum of each rank's own rate: with the stonewall every rank stopped within the
  // broadcast's delay of the first, so each rate covers the shared window.
  merged.mb_per_s = mb_per_s;
  merged.iops = iops;
  return merged;
}

// One direction of every reported rank (MergeParts); nullopt when no rank did it.
std::optional<DirectionResult> MergeDirection(const std::vector<RankRun>& ranks,
                                              std::optional<DirectionResult> RunResult::*which, double seconds) {
  std::vector<const DirectionResult*> parts;
  for (const RankRun& r : ranks)
    if (r.reported && r.run.*which) parts.push_back(&*(r.run.*which));
  return MergeParts(parts, seconds);
}

// The per-size rows of a mixed-size job, size by size as the first reported rank lists
// them (every rank ran the same job, so the same plan): each merged like a direction.
std::vector<SizeResult> MergeSizes(const std::vector<RankRun>& ranks, double seconds) {
  const RankRun* first = nullptr;
  for (const RankRun& r : ranks)
    if (r.reported && !r.run.per_size.empty()) {
      first = &r;
      break;
    }
  std::vector<SizeResult> out;
  if (!first) return out;
  for (size_t i = 0; i < first->run.per_size.size(); ++i) {
    SizeResult size;
    size.bs = first->run.per_size[i].bs;
    std::vector<const DirectionResult*> read, write;
    for (const RankRun& r : ranks) {
      if (!r.reported || i >= r.run.per_size.size() || r.run.per_size[i].bs != size.bs) continue;
      if (r.run.per_size[i].read) read.push_back(&*r.run.per_size[i].read);
      if (r.run.per_size[i].write) write.push_back(&*r.run.per_size[i].write);
    }
    size.read = MergeParts(read, seconds);
    size.write = MergeParts(write, seconds);
    out.push_back(std::move(size));
  }
  return out;
}

// A service-time histogram summed over the ranks' (null when none has one).
std::shared_ptr<const LatencyHistogram> MergedService(
    const std::vector<RankRun>& ranks, std::shared_ptr<const LatencyHistogram> PacingFacts::*which) {
  std::shared_ptr<LatencyHistogram> merged;
  for (const RankRun& r : ranks) {
    if (!r.reported || !r.run.pacing || !((*r.run.pacing).*which)) continue;
    if (!merged) merged = std::make_shared<LatencyHistogram>();
    merged->Merge(*((*r.run.pacing).*which));
  }
  return merged;
}

// The paced ranks' facts together: targets and achieved rates summed (each rank paced its
// share of the job's rates over the shared window, as its directions' rates are summed),
// judged over `seconds` for every rank's threads, and not sustained when any rank's
// schedule was not; service times from the summed buckets. nullopt when no rank was paced.
std::optional<PacingFacts> MergePacing(const std::vector<RankRun>& ranks, double seconds) {
  PacingFacts f;
  bool any = false, every_rank_kept = true;
  uint32_t paced_ranks = 0;
  const JobSpec* job = nullptr;
  for (const RankRun& r : ranks) {
    if (!r.reported || !r.run.pacing) continue;
    const PacingFacts& p = *r.run.pacing;
    any = true;
    ++paced_ranks;
    if (!job) job = &r.run.job;
    f.target_iops += p.target_iops;
    f.target_mb_per_s += p.target_mb_per_s;
    f.achieved_iops += p.achieved_iops;
    f.achieved_mb_per_s += p.achieved_mb_per_s;
    every_rank_kept = every_rank_kept && p.sustained;
  }
  if (!any) return std::nullopt;
  JudgePacing(*job, seconds, paced_ranks, f);
  f.sustained = f.sustained && every_rank_kept;
  f.read_service_histogram = MergedService(ranks, &PacingFacts::read_service_histogram);
  f.write_service_histogram = MergedService(ranks, &PacingFacts::write_service_histogram);
  if (f.read_service_histogram) f.read_service = LatencySummaryOf(*f.read_service_histogram);
  if (f.write_service_histogram) f.write_service = LatencySummaryOf(*f.write_service_histogram);
  return f;
}

// The cold-read checks together: cached when any rank's reads were, cold only when every
// reported rank's check found them so; nullopt when some rank checked nothing.
std::optional<bool> MergedCached(const std::vector<RankRun>& ranks) {
  bool any = false, all_checked = true, any_cached = false;
  for (const RankRun& r : ranks) {
    if (!r.reported) continue;
    any = true;
    if (!r.run.cached) all_checked = false;
    else if (*r.run.cached) any_cached = true;
  }
  if (any_cached) return true;
  if (!any || !all_checked) return std::nullopt;
  return false;
}

// The seed every reported rank ran with, when it was one (--seed gives each rank the
// same); nullopt when they differ, so no one seed is claimed to rerun the merged run.
std::optional<uint64_t> CommonSeed(const std::vector<RankRun>& ranks) {
  std::optional<uint64_t> seed;
  bool first = true;
  for (const RankRun& r : ranks) {
    if (!r.reported) continue;
    if (first) seed = r.run.job.seed;
    else if (seed != r.run.job.seed) return std::nullopt;
    first = false;
  }
  return seed;
}

// The job's rates are the sum of the ranks' shares (cluster/rank_runner.h splits them).
void SumRates(const std::vector<RankRun>& ranks, Pacing& pacing) {
  double iops = 0, mb_per_s = 0;
  bool any = false;
  for (const RankRun& r : ranks) {
    if (!r.reported) continue;
    any = true;
    iops += r.run.job.pacing.rate_iops;
    mb_per_s += r.run.job.pacing.rate_mb_per_s;
  }
  if (!any) return;
  pacing.rate_iops = iops;
  pacing.rate_mb_per_s = mb_per_s;
}

RankResult RankFigures(const RankRun& r, int64_t earliest_ns) {
  RankResult out;
  out.rank = r.rank;
  out.host = r.host;
  out.nic = r.nic;
  out.region = r.region;
  out.reported = r.reported;
  if (!r.reported) {
    out.partial = true;
    out.error = "no result (the rank was killed or lost)";
    return out;
  }
  out.start_offset_s = static_cast<double>(r.start_realtime_ns - earliest_ns) / 1e9;
  out.seconds = OwnSeconds(r.run);
  out.read = r.run.read;
  out.write = r.run.write;
  if (!out.read && !out.write && r.run.app) out.app_mb_per_s = r.run.app->mb_per_s;
  if (out.read) out.read->histogram.reset();
  if (out.write) out.write->histogram.reset();
  out.partial = r.run.partial;
  out.error = r.run.error;
  out.seed = r.run.job.seed;
  out.cached = r.run.cached;
  out.cold_read = r.cold_read;
  return out;
}

// The per-second aggregate: each rank's sample k ends k seconds after its own start, so on
// the shared clock it ends at start_offset + t_s; samples land in the whole second nearest.
std::vector<Sample> Timeline(const std::vector<RankRun>& ranks, const std::vector<RankResult>& each) {
  std::map<long, Sample> bins;
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (!ranks[i].reported) continue;
    for (const Sample& s : ranks[i].run.samples) {
      const double t = each[i].start_offset_s + s.t_s;
      Sample& bin = bins[std::lround(t)];
      bin.t_s = std::max(bin.t_s, t);
      bin.read_mb_per_s += s.read_mb_per_s;
      bin.write_mb_per_s += s.write_mb_per_s;
    }
  }
  std::vector<Sample> out;
  for (auto& [second, s] : bins) out.push_back(s);
  return out;
}

// "ranks differ in MTU: rank 0 9000 (enp1s0), rank 1 1500 (enp1s0); rank 2 unknown" when
// the ranks' known MTUs are not all one; "" otherwise. Ranks whose NIC is not known (a
// local target) are not counted; those with a NIC but no MTU are named as unknown.
std::string MtuNote(const std::vector<RankResult>& each) {
  std::string known, unknown;
  std::optional<int64_t> first;
  bool differ = false;
  for (const RankResult& r : each) {
    if (!r.reported || !r.nic) continue;
    const std::string rank = "rank " + std::to_string(r.rank);
    if (!r.nic->mtu) {
      unknown += (unknown.empty() ? "" : ", ") + rank;
      continue;
    }
    if (first && *first != *r.nic->mtu) differ = true;
    if (!first) first = r.nic->mtu;
    known += (known.empty() ? "" : ", ") + rank + " " + std::to_string(*r.nic->mtu) + " (" + r.nic->name + ")";
  }
  if (!differ) return "";
  return "ranks differ in MTU: " + known + (unknown.empty() ? "" : "; " + unknown + " unknown");
}

// Ranks that shared one file or device (a LUN): which region each used, and that no two
// overlapped (RegionOfRank makes them abut; a rank built otherwise would show here). ""
// when each rank had files of its own.
std::string RegionNote(const std::vector<RankResult>& each, const std::string& target) {
  std::vector<const RankResult*> shared;
  for (const RankResult& r : each)
    if (r.reported && r.region) shared.push_back(&r);
  if (shared.empty()) return "";
  auto span = [](const RankResult& r) {
    return "rank " + std::to_string(r.rank) + " [" + FormatSize(r.region->offset_bytes) + ", " +
           FormatSize(r.region->offset_bytes + r.region->bytes) + ")";
  };
  std::string list;
  for (size_t i = 0; i < shared.size(); ++i) {
    if (shared.size() > 8 && i == 4) {  // 1,000 ranks: the first and last few say the pattern
      list += ", ...";
      i = shared.size() - 4;
    }
    list += (list.empty() ? "" : ", ") + span(*shared[i]);
  }
  std::vector<const RankResult*> by_offset = shared;
  std::sort(by_offset.begin(), by_offset.end(),
            [](const RankResult* a, const RankResult* b) { return a->region->offset_bytes < b->region->offset_bytes; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const RankRegion& before = *by_offset[i - 1]->region;
    if (before.offset_bytes + before.bytes > by_offset[i]->region->offset_bytes)
      return "ranks' regions of " + target + " overlap: rank " + std::to_string(by_offset[i - 1]->rank) + " and rank " +
             std::to_string(by_offset[i]->rank) + " (" + list + ")";
  }
  return "one target shared by the ranks: each used its own region of " + target + ", none overlapping (" + list + ")";
}

std::string Mbps(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string Seconds(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

// Why the merged direction's mb_per_s is not bytes / seconds, with both figures: the MB/s
// is the sum of the ranks' own rates (each over its own time), while `seconds` is one
// shared span and `bytes` every rank's. "" when nothing moved.
std::string TotalNote(double total_mb_per_s, uint64_t bytes, double seconds, bool stonewall) {
  if (bytes == 0 || seconds <= 0) return "";
  const std::string span = stonewall ? "is the stonewall window, when every rank ran,"
                                     : "is from the earliest start to the latest end,";
  return "total MB/s " + Mbps(total_mb_per_s) + " is the sum of the ranks' own rates, not bytes / seconds: seconds (" +
         Seconds(seconds) + " s) " + span + " and bytes are every rank's over its own time, so bytes / seconds = " +
         Mbps(static_cast<double>(bytes) / seconds / 1e6) + " MB/s" + (stonewall ? "" : " (the last-done figure)");
}

}  // namespace

std::shared_ptr<const LatencyHistogram> MergedHistogram(const std::vector<const DirectionResult*>& directions) {
  std::shared_ptr<LatencyHistogram> merged;
  for (const DirectionResult* d : directions) {
    if (!d->histogram) continue;
    if (!merged) merged = std::make_shared<LatencyHistogram>();
    merged->Merge(*d->histogram);
  }
  return merged;
}

RunResult MergeRanks(const std::vector<RankRun>& ranks, bool stonewall) {
  RunResult out = ranks.empty() ? RunResult{} : ranks.front().run;
  ClusterFacts facts;
  facts.ranks = static_cast<int>(ranks.size());
  facts.stonewall = stonewall;

  int64_t earliest = std::numeric_limits<int64_t>::max(), latest = std::numeric_limits<int64_t>::min();
  int64_t first_end = std::numeric_limits<int64_t>::max(), last_end = std::numeric_limits<int64_t>::min();
  for (const RankRun& r : ranks) {
    if (!r.reported) continue;
    const int64_t end = r.start_realtime_ns + static_cast<int64_t>(OwnSeconds(r.run) * 1e9);
    earliest = std::min(earliest, r.start_realtime_ns);
    latest = std::max(latest, r.start_realtime_ns);
    first_end = std::min(first_end, end);
    last_end = std::max(last_end, end);
  }
  const bool any = earliest != std::numeric_limits<int64_t>::max();
  if (any) {
    facts.start_skew_us = static_cast<double>(latest - earliest) / 1e3;
    facts.window_s = std::max<double>(0, static_cast<double>(first_end - latest) / 1e9);
    facts.first_done_s = static_cast<double>(first_end - earliest) / 1e9;
    facts.last_done_s = static_cast<double>(last_end - earliest) / 1e9;
  }
  for (const RankRun& r : ranks) facts.each.push_back(RankFigures(r, any ? earliest : 0));

  const double seconds = stonewall ? facts.window_s : facts.last_done_s;
  out.read = MergeDirection(ranks, &RunResult::read, seconds);
  out.write = MergeDirection(ranks, &RunResult::write, seconds);
  uint64_t all_bytes = 0;
  if (out.read) all_bytes += out.read->bytes;
  if (out.write) all_bytes += out.write->bytes;
  if (facts.last_done_s > 0) facts.last_done_mb_per_s = static_cast<double>(all_bytes) / facts.last_done_s / 1e6;
  const double total_mb_per_s = (out.read ? out.read->mb_per_s : 0) + (out.write ? out.write->mb_per_s : 0);
  out.samples = Timeline(ranks, facts.each);

  out.cpu = {};
  uint64_t verified = 0;
  bool any_verified = false;
  for (const RankRun& r : ranks) {
    if (!r.reported) continue;
    out.cpu.user_pct += r.run.cpu.user_pct;
    out.cpu.sys_pct += r.run.cpu.sys_pct;
    if (r.run.verified_bytes) {
      any_verified = true;
      verified += *r.run.verified_bytes;
    }
  }
  out.verified_bytes = any_verified ? std::optional<uint64_t>(verified) : std::nullopt;
  out.per_size = MergeSizes(ranks, seconds);
  out.pacing = MergePacing(ranks, seconds);
  if (out.pacing) SumRates(ranks, out.job.pacing);
  out.job.seed = CommonSeed(ranks);
  out.cached = MergedCached(ranks);
  // --steady's window is one process's and does not add up across ranks: left out.
  out.steady.reset();

  // The spread: the slowest and fastest reported rank by total MB/s.
  const RankResult* slowest = nullptr;
  const RankResult* fastest = nullptr;
  for (const RankResult& r : facts.each) {
    if (!r.reported) continue;
    if (!slowest || r.total_mb_per_s() < slowest->total_mb_per_s()) slowest = &r;
    if (!fastest || r.total_mb_per_s() > fastest->total_mb_per_s()) fastest = &r;
  }
  if (slowest && slowest->total_mb_per_s() > 0) {
    facts.spread_pct = (fastest->total_mb_per_s() / slowest->total_mb_per_s() - 1) * 100;
    facts.spread_flagged = facts.spread_pct > kRankSpreadFlagPct;
    if (facts.spread_flagged)
      out.notes.push_back("ranks differ: slowest rank " + std::to_string(slowest->rank) + " " +
                          Mbps(slowest->total_mb_per_s()) + " MB/s, fastest rank " + std::to_string(fastest->rank) +
                          " " + Mbps(fastest->total_mb_per_s()) + " MB/s (spread " + Mbps(facts.spread_pct) +
                          " % > 10 %)");
  }
  if (std::string total = TotalNote(total_mb_per_s, all_bytes, seconds, stonewall); !total.empty())
    out.notes.push_back(total);
  if (std::string mtu = MtuNote(facts.each); !mtu.empty()) out.notes.push_back(mtu);
  if (std::string regions = RegionNote(facts.each, out.target); !regions.empty()) out.notes.push_back(regions);
  out.notes.push_back(stonewall ? "ranks: " + std::to_string(facts.ranks) +
                                      "; stonewall: every rank stopped when the first finished; the total is the "
                                      "sum of the ranks' rates"
                                : "ranks: " + std::to_string(facts.ranks) +
                                      "; stonewall off: the total is the sum of each rank's rate over its own time");

  // The run's end is named by its cause: a rank that went missing (mpirun then interrupts
  // the others), else a rank's own failure, else the first rank stopped or interrupted.
  out.partial = false;
  out.error.clear();
  auto rank_error = [](const RankResult& r) {
    return "rank " + std::to_string(r.rank) + ": " + (r.error.empty() ? "partial" : r.error);
  };
  auto knock_on = [](const RankResult& r) {
    return r.error.starts_with("stopped: ") || r.error == "interrupted by signal";
  };
  for (int pass = 0; pass < 3 && out.error.empty(); ++pass)
    for (const RankResult& r : facts.each) {
      if (r.reported && !r.partial) continue;
      out.partial = true;
      const bool fits = pass == 0 ? !r.reported : pass == 1 ? r.reported && !knock_on(r) : true;
      if (fits && out.error.empty()) out.error = rank_error(r);
    }
  out.cluster = std::move(facts);
  return out;
}

}  // namespace nasperf
