// Table rendering for run and quick.
#include "report/table_report.h"

#include <fmt/format.h>

#include "core/units.h"

namespace nasperf {
namespace {

std::string DirectionLine(const char* label, const DirectionResult& d) {
  return fmt::format("{:<6} {:>10.2f} {:>11.0f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>10.1f}\n", label,
                     d.mb_per_s, d.iops, d.lat.mean_us, d.lat.p50_us, d.lat.p90_us, d.lat.p99_us, d.lat.p999_us,
                     d.lat.max_us);
}

}  // namespace

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
  if (!run.repeat_mb_per_s.empty()) {
    out += "median of " + std::to_string(run.repeat_mb_per_s.size()) + " repeats; each (MB/s):";
    for (double v : run.repeat_mb_per_s) out += fmt::format(" {:.2f}", v);
    out += "\n";
  }
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (!run.error.empty()) out += "stopped early: " + run.error + "\n";
  return out;
}

std::string QuickTable(const std::string& heading, const std::vector<QuickRow>& rows) {
  std::string out = heading + "\n";
  out += fmt::format("{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12}\n", "", "Read MB/s", "Write MB/s",
                     "Read IOPS", "Write IOPS", "Read lat us", "Write lat us");
  auto mb = [](const RunResult* r, bool read) {
    const auto& d = read ? r->read : r->write;
    return r && d ? fmt::format("{:.2f}", d->mb_per_s) : std::string("-");
  };
  auto iops = [](const RunResult* r, bool read) {
    const auto& d = read ? r->read : r->write;
    return r && d ? fmt::format("{:.0f}", d->iops) : std::string("-");
  };
  auto lat = [](const RunResult* r, bool read) {
    const auto& d = read ? r->read : r->write;
    return r && d ? fmt::format("{:.1f}", d->lat.mean_us) : std::string("-");
  };
  for (const QuickRow& row : rows) {
    out += fmt::format("{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12}\n", row.label,
                       row.read ? mb(row.read, true) : "-", row.write ? mb(row.write, false) : "-",
                       row.read ? iops(row.read, true) : "-", row.write ? iops(row.write, false) : "-",
                       row.read ? lat(row.read, true) : "-", row.write ? lat(row.write, false) : "-");
  }
  return out;
}

}  // namespace nasperf
