// RanksText.
#include "report/rank_table.h"

#include <fmt/format.h>

#include <algorithm>

namespace nasperf {
namespace {

double Iops(const RankResult& r) { return (r.read ? r.read->iops : 0) + (r.write ? r.write->iops : 0); }

double P99(const RankResult& r) {
  return std::max(r.read ? r.read->lat.p99_us : 0.0, r.write ? r.write->lat.p99_us : 0.0);
}

std::string Figure(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }

// Each rank's host and the NIC it reached the target through (issue 20's per-rank inventory).
std::string InventoryText(const ClusterFacts& c) {
  if (std::none_of(c.each.begin(), c.each.end(), [](const RankResult& r) { return r.nic.has_value(); }))
    return "nic: none known on any rank (a local target has no NIC in its path)\n";
  std::string out = fmt::format("{:>4} {:<20} {:<16} {:>10} {:>6}\n", "rank", "host", "nic", "Mb/s", "MTU");
  for (const RankResult& r : c.each)
    out += fmt::format("{:>4} {:<20} {:<16} {:>10} {:>6}\n", r.rank, r.host.empty() ? "-" : r.host.substr(0, 20),
                       r.nic ? r.nic->name : "-", Figure(r.nic ? r.nic->speed_mbps : std::nullopt),
                       Figure(r.nic ? r.nic->mtu : std::nullopt));
  return out;
}

}  // namespace

std::string RanksText(const RunResult& run) {
  if (!run.cluster) return "";
  const ClusterFacts& c = *run.cluster;
  double total = (run.read ? run.read->mb_per_s : 0) + (run.write ? run.write->mb_per_s : 0);
  // An app run without read or write figures (office, photo-album): its ranks' payload rates.
  if (!run.read && !run.write && run.app)
    for (const RankResult& r : c.each) total += r.reported ? r.total_mb_per_s() : 0;
  std::string out = fmt::format("ranks: {} (mpirun); start skew {:.0f} us (CLOCK_REALTIME, latest - earliest)\n",
                                c.ranks, c.start_skew_us);
  if (c.stonewall)
    out += fmt::format("stonewall: {:.2f} s while every rank ran; every rank stopped when the first finished\n",
                       c.window_s);
  else
    out += "stonewall off: each rank ran its whole job; the total sums each rank's rate over its own time\n";
  out += fmt::format(
      "first done {:.2f} s: {:.2f} MB/s (sum of the ranks' rates); last done {:.2f} s: {:.2f} MB/s "
      "(every byte over the whole span)\n",
      c.first_done_s, total, c.last_done_s, c.last_done_mb_per_s);
  out += fmt::format("{:>4} {:<20} {:>10} {:>9} {:>10} {:>11} {:>9}\n", "rank", "host", "start ms", "seconds", "MB/s",
                     "IOPS", "p99 us");
  for (const RankResult& r : c.each) {
    if (!r.reported) {
      out += fmt::format("{:>4} {:<20} {}\n", r.rank, r.host.empty() ? "-" : r.host, "no result: " + r.error);
      continue;
    }
    // An app rank without read or write figures has no IOPS or p99 of its own to show, and
    // a backup's or restore's chunks are counted but not timed one by one (p99 0: none kept).
    const bool io = r.read || r.write;
    const bool timed = io && P99(r) > 0;
    out += fmt::format("{:>4} {:<20} {:>10.3f} {:>9.2f} {:>10.2f} {:>11} {:>9}{}\n", r.rank, r.host.substr(0, 20),
                       r.start_offset_s * 1e3, r.seconds, r.total_mb_per_s(),
                       io ? fmt::format("{:.0f}", Iops(r)) : "-", timed ? fmt::format("{:.1f}", P99(r)) : "-",
                       r.partial ? "  [PARTIAL: " + r.error + "]" : "");
  }
  // Each rank's own seed and cold-read check: no one rank's stands for the run's.
  for (const RankResult& r : c.each) {
    if (!r.reported || (!r.seed && r.cold_read.empty())) continue;
    std::string facts = r.seed ? fmt::format("seed {}", *r.seed) : "";
    if (!r.cold_read.empty()) facts += (facts.empty() ? "" : "; ") + r.cold_read;
    out += fmt::format("rank {}: {}\n", r.rank, facts);
  }
  out += InventoryText(c);
  out += fmt::format("spread: fastest rank {:.1f} % above the slowest{}\n", c.spread_pct,
                     c.spread_flagged ? " [UNEVEN: over 10 %]" : "");
  return out;
}

std::string RanksLine(const std::string& label, const RunResult& run) {
  if (!run.cluster) return "";
  const ClusterFacts& c = *run.cluster;
  const std::string window =
      c.stonewall ? fmt::format("stonewall {:.2f} s", c.window_s) : std::string("stonewall off");
  return fmt::format("{}: {} ranks, start skew {:.0f} us, {}, first done {:.2f} s, last done {:.2f} s, spread {:.1f} %{}{}\n",
                     label, c.ranks, c.start_skew_us, window, c.first_done_s, c.last_done_s, c.spread_pct,
                     c.spread_flagged ? " [UNEVEN: over 10 %]" : "", run.partial ? " [PARTIAL: " + run.error + "]" : "");
}

}  // namespace nasperf
