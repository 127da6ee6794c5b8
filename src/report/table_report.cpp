// Table rendering for run and quick.
#include "report/table_report.h"

#include <fmt/format.h>

#include "core/units.h"
#include "stats/confidence.h"

namespace nasperf {
namespace {

std::string DirectionLine(const char* label, const DirectionResult& d) {
  return fmt::format("{:<6} {:>10.2f} {:>11.0f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>10.1f}\n", label,
                     d.mb_per_s, d.iops, d.lat.mean_us, d.lat.p50_us, d.lat.p90_us, d.lat.p99_us, d.lat.p999_us,
                     d.lat.max_us);
}

}  // namespace

std::string RepeatsLine(const RunResult& run) {
  if (run.repeats.empty()) return "";
  std::vector<double> totals = RepeatTotals(run);
  RepeatSpread spread = SummariseRepeats(totals);
  std::string out = fmt::format("median of {} repeats", spread.count);
  if (spread.ci95)
    out += fmt::format("; 95 % CI of the mean {:.2f}-{:.2f} MB/s ({})", spread.ci95->low, spread.ci95->high,
                       kConfidenceMethod);
  out += fmt::format("; spread {:.1f} %{}; each (MB/s):", spread.spread_pct,
                     spread.noisy ? fmt::format(" [NOISY: over {:g} %]", kNoisySpreadPct) : "");
  for (double v : totals) out += fmt::format(" {:.2f}", v);
  return out + "\n";
}

std::string RunTable(const RunResult& run) {
  const JobSpec& job = run.job;
  std::string out = fmt::format("{} {} QD{} T{} on {} — {}, {}{}, {} per thread{}\n", ToString(job.rw),
                                FormatSize(job.bs), job.qd, job.threads, run.target, run.engine,
                                job.direct ? "direct" : "buffered", job.fsync ? " + fsync" : "",
                                FormatSize(job.size), run.partial ? "  [PARTIAL]" : "");
  out += fmt::format("{:<6} {:>10} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}\n", "", "MB/s", "IOPS", "mean us",
                     "p50 us", "p90 us", "p99 us", "p99.9 us", "max us");
  if (DidIo(run.read)) out += DirectionLine("read", *run.read);
  if (DidIo(run.write)) out += DirectionLine("write", *run.write);
  double seconds = run.read ? run.read->seconds : run.write ? run.write->seconds : 0;
  out += fmt::format("{:.2f} s measured; CPU {:.1f} % user, {:.1f} % sys (of one core); MB/s = 10^6 B/s\n", seconds,
                     run.cpu.user_pct, run.cpu.sys_pct);
  out += RepeatsLine(run);
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (!run.error.empty()) out += "stopped early: " + run.error + "\n";
  return out;
}

std::string QuickTable(const std::string& heading, const std::vector<QuickRow>& rows) {
  std::string out = heading + "\n";
  auto direction = [](const RunResult* r, bool read) -> const DirectionResult* {
    if (!r) return nullptr;
    const auto& d = read ? r->read : r->write;
    return DidIo(d) ? &*d : nullptr;
  };
  // Half-width of the 95 % interval as % of the median, "!" when the repeats are noisy.
  auto uncertainty = [](const RunResult* r) -> std::string {
    if (!r || r->repeats.empty()) return "-";
    RepeatSpread spread = SummariseRepeats(RepeatTotals(*r));
    if (!spread.ci95 || spread.median <= 0) return "-";
    double half_pct = (spread.ci95->high - spread.ci95->low) / 2 / spread.median * 100;
    return fmt::format("{:.1f}{}", half_pct, spread.noisy ? "!" : "");
  };
  bool repeated = false;
  for (const QuickRow& row : rows)
    for (const RunResult* r : {row.read, row.write})
      if (r && !r->repeats.empty()) repeated = true;
  out += fmt::format("{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12}{}\n", "", "Read MB/s", "Write MB/s",
                     "Read IOPS", "Write IOPS", "Read lat us", "Write lat us",
                     repeated ? fmt::format(" {:>8} {:>8}", "Read ±%", "Write ±%") : "");
  for (const QuickRow& row : rows) {
    const DirectionResult* rd = direction(row.read, true);
    const DirectionResult* wr = direction(row.write, false);
    out += fmt::format("{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12}", row.label,
                       rd ? fmt::format("{:.2f}", rd->mb_per_s) : "-", wr ? fmt::format("{:.2f}", wr->mb_per_s) : "-",
                       rd ? fmt::format("{:.0f}", rd->iops) : "-", wr ? fmt::format("{:.0f}", wr->iops) : "-",
                       rd ? fmt::format("{:.1f}", rd->lat.mean_us) : "-",
                       wr ? fmt::format("{:.1f}", wr->lat.mean_us) : "-");
    if (repeated) out += fmt::format(" {:>8} {:>8}", uncertainty(row.read), uncertainty(row.write));
    out += "\n";
  }
  if (repeated)
    out += fmt::format("±%: half-width of the 95 % CI of the mean ({}), as % of the median; "
                       "! = noisy (repeats spread over {:g} %)\n",
                       kConfidenceMethod, kNoisySpreadPct);
  return out;
}

}  // namespace nasperf
