// SweepTable: a sweep's points as one table per record size, its legend and cache analysis.
#include "report/sweep_report.h"

#include <fmt/format.h>

#include "base/units.h"
#include "stats/confidence.h"

namespace nasperf {
namespace {

const RunResult* FindPoint(const std::vector<RunResult>& points, uint64_t size, uint64_t record,
                           const std::string& test) {
  for (const RunResult& p : points)
    if (p.job.size == size && p.job.bs == record && p.test == test) return &p;
  return nullptr;
}

bool Noisy(const RunResult* p) { return p && !p->repeats.empty() && SummariseRepeats(RepeatTotals(*p)).noisy; }

std::string Cell(const RunResult* p) {
  if (!p) return "-";
  if (p->partial) return "partial";
  std::string mark = p->cached.value_or(false) ? " c" : "  ";
  return fmt::format("{:.1f}{}{}", PointMbPerS(*p), Noisy(p) ? "!" : "", mark);
}

// The title line and the file sizes.
std::string Header(const SweepSummary& s, const std::vector<RunResult>& points) {
  std::string sizes;
  for (uint64_t size : s.sizes) sizes += (sizes.empty() ? "" : ", ") + FormatSize(size);
  std::string engine = points.empty() ? "-" : points.front().engine;
  const char* io = !s.ram.client_caches ? "I/O straight to the server (no client cache)"
                   : s.direct             ? "direct (O_DIRECT) I/O"
                                          : "buffered I/O";
  std::string out = fmt::format(
      "nasperf sweep{} — {} — {}{}, {}, QD1 T1, {}; MB/s = 10^6 B/s{}\n",
      s.id ? fmt::format(" s{}", s.id) : "", s.target, io,
      s.fsync ? " + fsync" : "", engine,
      s.repeat > 1 ? fmt::format("median of {} repeats per point", s.repeat) : "one run per point",
      s.partial ? "  [PARTIAL]" : "");
  out += fmt::format("file sizes ({}): {}; {}\n", s.sizes.size(), sizes, s.max_reason);
  return out;
}

// One table per record size: a row per file size, a column per test. Sets *any_cached and
// *any_noisy when a cell carries that mark.
std::string PointTables(const SweepSummary& s, const std::vector<RunResult>& points, bool* any_cached,
                        bool* any_noisy) {
  std::string out;
  for (uint64_t record : s.records) {
    out += fmt::format("\nrecord {}\n{:>12}", FormatSize(record), "file size");
    for (const std::string& test : s.tests) out += fmt::format(" {:>13}", test);
    out += "\n";
    for (uint64_t size : s.sizes) {
      if (record > size) continue;
      out += fmt::format("{:>12}", FormatSize(size));
      for (const std::string& test : s.tests) {
        const RunResult* p = FindPoint(points, size, record, test);
        *any_cached = *any_cached || (p && p->cached.value_or(false));
        *any_noisy = *any_noisy || Noisy(p);
        out += fmt::format(" {:>13}", Cell(p));
      }
      out += "\n";
    }
  }
  return out;
}

// What the marks mean, how the cache was handled before cold reads, and the notes.
std::string Legend(const SweepSummary& s, bool any_cached, bool any_noisy) {
  std::string out;
  if (any_cached && !s.ram.client_caches)
    out += fmt::format("c = cached: the file fits in the NAS's RAM ({})\n", s.ram.Text(", "));
  else if (any_cached)
    out += fmt::format("c = cached: buffered, and the file fits in the RAM that can cache it ({}), with no "
                       "verified page-cache drop before it\n",
                       s.ram.Text(", "));
  if (any_noisy) out += fmt::format("! = noisy: the repeats spread over {:g} %\n", kNoisySpreadPct);
  if (!s.ram.client_caches)
    out += "cache before cold reads: " + s.cache_method + "\n";
  else if (s.direct)
    out += "page cache: not involved (O_DIRECT)\n";
  else if (s.cache_drops > 0)
    out += fmt::format("page cache before cold reads: {} ({} drops); afterwards at most {:.1f} % of the file was "
                       "still cached{}\n",
                       s.cache_method, s.cache_drops, s.max_resident_pct,
                       s.max_resident_pct >= 1 ? " — those reads are marked cached, not cold" : " (checked with mincore)");
  for (const std::string& note : s.notes) out += "note: " + note + "\n";
  return out;
}

// Each curve's verdict, plateaus and outliers.
std::string CacheAnalysis(const SweepSummary& s) {
  std::string out = "\ncache analysis\n";
  for (const SweepCurve& c : s.curves) {
    std::string plateaus;
    if (c.analysis.cached_mb_per_s) plateaus += fmt::format("cached {:.1f} MB/s", *c.analysis.cached_mb_per_s);
    if (c.analysis.uncached_mb_per_s)
      plateaus += fmt::format("{}uncached {:.1f} MB/s", plateaus.empty() ? "" : ", ", *c.analysis.uncached_mb_per_s);
    std::string label = s.records.size() > 1 ? fmt::format("{} {}", c.test, FormatSize(c.record_bytes)) : c.test;
    out += fmt::format("  {:<10} {}{}\n", label, c.analysis.verdict, plateaus.empty() ? "" : " (" + plateaus + ")");
    if (!c.analysis.outliers.empty()) {
      std::string sizes;
      for (uint64_t bytes : c.analysis.outliers) sizes += (sizes.empty() ? "" : ", ") + FormatSize(bytes);
      out += fmt::format("  {:<10} outliers: {} (off their plateau, left out of the knee and the plateaus)\n", "",
                         sizes);
    }
  }
  return out;
}

}  // namespace

std::string SweepTable(const SweepSummary& s, const std::vector<RunResult>& points) {
  bool any_cached = false, any_noisy = false;
  std::string out = Header(s, points);
  out += PointTables(s, points, &any_cached, &any_noisy);
  out += "\n";
  out += Legend(s, any_cached, any_noisy);
  out += CacheAnalysis(s);
  return out;
}

}  // namespace nasperf
