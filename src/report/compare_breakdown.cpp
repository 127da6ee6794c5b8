// CompareBreakdowns and FlagPacedLatency: ranks, sizes and pacing side by side.
#include "report/compare_breakdown.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "base/units.h"

namespace nasperf {
namespace {

// The column's run when it holds exactly one.
const RunResult* Sole(const CompareColumn& column) { return column.runs.size() == 1 ? &column.runs.front() : nullptr; }

// "#12" of a heading "#12 NFSv3 atom": enough to name the column in a note.
std::string ColumnId(const CompareColumn& column) {
  const std::string& h = column.heading;
  return h.substr(0, h.find(' '));
}

CompareRow NewRow(const std::string& label, const std::string& unit, size_t columns) {
  return {label, unit, std::vector<CompareCell>(columns)};
}

void Set(CompareCell& cell, double value) {
  cell.present = true;
  cell.value = value;
}

void Missing(CompareCell& cell, const std::string& why) {
  cell.present = false;
  cell.caveat = why;
}

// The % against the first column, where both cells have a figure and no caveat.
void AgainstFirst(std::vector<CompareRow>& rows) {
  for (CompareRow& row : rows) {
    const CompareCell& first = row.cells[0];
    for (size_t c = 1; c < row.cells.size(); ++c) {
      CompareCell& cell = row.cells[c];
      if (cell.present && first.present && cell.caveat.empty() && first.caveat.empty() && first.value != 0)
        cell.pct_vs_first = (cell.value - first.value) / first.value * 100;
    }
  }
}

// Rows dropped when no column has a figure or a caveat in them.
void DropEmpty(std::vector<CompareRow>& rows) {
  std::vector<CompareRow> kept;
  for (CompareRow& row : rows) {
    bool any = false;
    for (const CompareCell& cell : row.cells) any = any || cell.present;
    if (any) kept.push_back(std::move(row));
  }
  rows = std::move(kept);
}

// ------------------------------------------------------------------ per rank
CompareSection RankSection(const std::vector<CompareColumn>& columns) {
  CompareSection s{"per rank (many clients)", {}, {}};
  const size_t n = columns.size();
  std::vector<CompareRow> rows = {NewRow("ranks", "ranks", n), NewRow("spread (fastest over slowest)", "%", n),
                                  NewRow("start skew", "us", n), NewRow("stonewall window", "s", n)};
  std::set<int> counts;
  std::vector<std::string> kinds;
  std::vector<std::string> uneven;
  for (size_t c = 0; c < n; ++c) {
    const RunResult* run = Sole(columns[c]);
    if (!run || !run->cluster) {
      for (CompareRow& row : rows) Missing(row.cells[c], "single client");
      counts.insert(1);
      kinds.push_back(ColumnId(columns[c]) + " is a single client");
      continue;
    }
    const ClusterFacts& f = *run->cluster;
    Set(rows[0].cells[c], f.ranks);
    Set(rows[1].cells[c], f.spread_pct);
    Set(rows[2].cells[c], f.start_skew_us);
    if (f.stonewall)
      Set(rows[3].cells[c], f.window_s);
    else
      Missing(rows[3].cells[c], "stonewall off");
    counts.insert(f.ranks);
    kinds.push_back(fmt::format("{} ran {} ranks", ColumnId(columns[c]), f.ranks));
    if (f.spread_flagged) uneven.push_back(ColumnId(columns[c]));
  }
  if (!uneven.empty()) s.notes.push_back(fmt::format("uneven ranks (spread over 10 %): {}", fmt::join(uneven, ", ")));
  if (counts.size() > 1) {
    s.notes.push_back(fmt::format("per-rank breakdown not comparable: {}; only the totals above are compared",
                                  fmt::join(kinds, ", ")));
    AgainstFirst(rows);
    s.rows = std::move(rows);
    return s;
  }
  // Every column ran the same number of ranks: each rank's own figures side by side.
  const int ranks = *counts.begin();
  for (int k = 0; k < ranks; ++k) {
    for (const char* dir : {"read", "write"}) {
      CompareRow row = NewRow(fmt::format("rank {} {} MB/s", k, dir), "MB/s", n);
      for (size_t c = 0; c < n; ++c) {
        const ClusterFacts& f = *Sole(columns[c])->cluster;
        const RankResult* r = nullptr;
        for (const RankResult& e : f.each)
          if (e.rank == k) r = &e;
        if (!r || !r->reported) {
          Missing(row.cells[c], "no result");
          continue;
        }
        const std::optional<DirectionResult>& d = std::string(dir) == "read" ? r->read : r->write;
        if (DidIo(d)) Set(row.cells[c], d->mb_per_s);
        if (r->partial) row.cells[c].caveat = "partial";
      }
      bool any = false;
      for (const CompareCell& cell : row.cells) any = any || cell.present;
      if (any) rows.push_back(std::move(row));
    }
  }
  // A rank that sent nothing in every column leaves no row above: name it.
  for (size_t c = 0; c < n; ++c)
    for (const RankResult& r : Sole(columns[c])->cluster->each)
      if (!r.reported)
        s.notes.push_back(fmt::format("{} rank {}: {}", ColumnId(columns[c]), r.rank,
                                      r.error.empty()                      ? "no result"
                                      : r.error.rfind("no result", 0) == 0 ? r.error
                                                                           : "no result: " + r.error));
  AgainstFirst(rows);
  s.rows = std::move(rows);
  return s;
}

// ------------------------------------------------------------------ per size
std::string SizesText(const std::vector<SizeResult>& sizes) {
  std::vector<std::string> names;
  for (const SizeResult& s : sizes) names.push_back(FormatSize(s.bs));
  return fmt::format("{}", fmt::join(names, ", "));
}

CompareSection SizeSection(const std::vector<CompareColumn>& columns) {
  CompareSection s{"per size (block-size mix)", {}, {}};
  const size_t n = columns.size();
  std::set<std::vector<uint64_t>> mixes;
  std::vector<std::string> kinds;
  for (const CompareColumn& column : columns) {
    const RunResult* run = Sole(column);
    std::vector<uint64_t> sizes;
    if (run)
      for (const SizeResult& e : run->per_size) sizes.push_back(e.bs);
    mixes.insert(sizes);
    kinds.push_back(run && !run->per_size.empty()
                        ? fmt::format("{} measured {}", ColumnId(column), SizesText(run->per_size))
                        : ColumnId(column) + " has one block size");
  }
  if (mixes.size() > 1) {
    s.notes.push_back(
        fmt::format("per-size rows not compared: the block-size mixes differ ({}); only the totals "
                    "above are compared",
                    fmt::join(kinds, "; ")));
    return s;
  }
  const RunResult& first = *Sole(columns[0]);
  for (size_t i = 0; i < first.per_size.size(); ++i) {
    for (const char* dir : {"read", "write"}) {
      const bool read = std::string(dir) == "read";
      const std::string prefix = FormatSize(first.per_size[i].bs) + " " + dir + " ";
      std::vector<CompareRow> rows = {NewRow(prefix + "MB/s", "MB/s", n), NewRow(prefix + "IOPS", "IOPS", n),
                                      NewRow(prefix + "p99 latency", "us", n)};
      for (size_t c = 0; c < n; ++c) {
        const SizeResult& e = Sole(columns[c])->per_size[i];
        const std::optional<DirectionResult>& d = read ? e.read : e.write;
        if (!DidIo(d)) continue;
        Set(rows[0].cells[c], d->mb_per_s);
        Set(rows[1].cells[c], d->iops);
        Set(rows[2].cells[c], d->lat.p99_us);
      }
      DropEmpty(rows);
      for (CompareRow& row : rows) s.rows.push_back(std::move(row));
    }
  }
  AgainstFirst(s.rows);
  return s;
}

// ------------------------------------------------------------------ pacing
CompareSection PacingSection(const std::vector<CompareColumn>& columns) {
  CompareSection s{"pacing (rates are the job's total; latency above from the intended start)", {}, {}};
  const size_t n = columns.size();
  std::vector<CompareRow> rows = {NewRow("target IOPS", "IOPS", n),
                                  NewRow("achieved IOPS", "IOPS", n),
                                  NewRow("target MB/s", "MB/s", n),
                                  NewRow("achieved MB/s", "MB/s", n),
                                  NewRow("shortfall", "%", n),
                                  NewRow("read service p50 (from submit)", "us", n),
                                  NewRow("read service p99 (from submit)", "us", n),
                                  NewRow("write service p50 (from submit)", "us", n),
                                  NewRow("write service p99 (from submit)", "us", n)};
  std::vector<std::string> short_of;
  for (size_t c = 0; c < n; ++c) {
    const RunResult* run = Sole(columns[c]);
    if (!run || !run->pacing) {
      for (CompareRow& row : rows) Missing(row.cells[c], "closed loop");
      continue;
    }
    const PacingFacts& p = *run->pacing;
    if (p.target_iops > 0) {
      Set(rows[0].cells[c], p.target_iops);
      Set(rows[1].cells[c], p.achieved_iops);
    }
    if (p.target_mb_per_s > 0) {
      Set(rows[2].cells[c], p.target_mb_per_s);
      Set(rows[3].cells[c], p.achieved_mb_per_s);
    }
    if (p.target_iops <= 0 && p.target_mb_per_s <= 0) Set(rows[1].cells[c], p.achieved_iops);  // think time only
    Set(rows[4].cells[c], p.shortfall_pct);
    if (p.read_service) {
      Set(rows[5].cells[c], p.read_service->p50_us);
      Set(rows[6].cells[c], p.read_service->p99_us);
    }
    if (p.write_service) {
      Set(rows[7].cells[c], p.write_service->p50_us);
      Set(rows[8].cells[c], p.write_service->p99_us);
    }
    if (!p.sustained)
      short_of.push_back(p.excess_pct > 0 ? fmt::format("{} ({:.1f} % over)", ColumnId(columns[c]), p.excess_pct)
                                          : fmt::format("{} ({:.1f} % short)", ColumnId(columns[c]), p.shortfall_pct));
  }
  DropEmpty(rows);
  AgainstFirst(rows);
  s.rows = std::move(rows);
  if (!short_of.empty())
    s.notes.push_back(fmt::format("could not sustain the schedule: {}", fmt::join(short_of, ", ")));
  return s;
}

bool Paced(const CompareColumn& column) {
  const RunResult* run = Sole(column);
  return run && run->pacing;
}

}  // namespace

std::vector<CompareSection> CompareBreakdowns(const std::vector<CompareColumn>& columns) {
  std::vector<CompareSection> out;
  bool cluster = false, sizes = false, pacing = false;
  for (const CompareColumn& column : columns) {
    const RunResult* run = Sole(column);
    if (!run) continue;
    cluster = cluster || run->cluster;
    sizes = sizes || !run->per_size.empty();
    pacing = pacing || run->pacing;
  }
  if (columns.empty()) return out;
  if (cluster) out.push_back(RankSection(columns));
  if (sizes) out.push_back(SizeSection(columns));
  if (pacing) out.push_back(PacingSection(columns));
  return out;
}

std::string FlagPacedLatency(const std::vector<CompareColumn>& columns, std::vector<CompareRow>& rows) {
  if (columns.empty()) return "";
  const bool first_paced = Paced(columns[0]);
  std::vector<std::string> paced, closed;
  for (const CompareColumn& column : columns) (Paced(column) ? paced : closed).push_back(ColumnId(column));
  if (paced.empty() || closed.empty()) return "";
  for (CompareRow& row : rows) {
    if (row.unit != "us") continue;
    for (size_t c = 0; c < row.cells.size(); ++c) {
      CompareCell& cell = row.cells[c];
      if (!cell.present || Paced(columns[c]) == first_paced) continue;
      cell.caveat = Paced(columns[c]) ? "paced" : "closed loop";
      cell.pct_vs_first = 0;
      cell.welch.reset();
      cell.significance.clear();
    }
  }
  return fmt::format(
      "latency not compared: {} paced (timed from each I/O's intended start), {} closed loop (timed from the "
      "submit); the paced run's service time (pacing rows) is the figure that matches a closed loop's latency",
      fmt::join(paced, ", "), fmt::join(closed, ", "));
}

}  // namespace nasperf
