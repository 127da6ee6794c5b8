// Table lines for application runs (report/app_text.h).
#include "report/app_text.h"

#include <fmt/format.h>

#include "base/units.h"

namespace nasperf {
namespace {

std::string DatasetLine(const AppDataset& d) {
  std::string out = "dataset: ";
  if (!d.preset.empty()) out += fmt::format("{} x{:g}, ", d.preset, d.scale);
  out += fmt::format("{} file{}", d.files, d.files == 1 ? "" : "s");
  if (d.dirs) out += fmt::format(" in {} dir{}", d.dirs, d.dirs == 1 ? "" : "s");
  out += fmt::format(", {} ({} bytes), seed {}", FormatSize(d.bytes), d.bytes, d.seed);
  if (d.files > 1)
    out += fmt::format("; sizes median {} mean {} p90 {} p99 {}, {:.1f} % of bytes in files over 1 MiB",
                       FormatSize(static_cast<uint64_t>(d.median_bytes)),
                       FormatSize(static_cast<uint64_t>(d.mean_bytes)), FormatSize(static_cast<uint64_t>(d.p90_bytes)),
                       FormatSize(static_cast<uint64_t>(d.p99_bytes)), d.share_over_1mib * 100);
  if (!d.generator.empty()) out += "; " + d.generator;
  if (!d.digest.empty()) out += "; " + d.digest;
  return out;
}

void OpLines(const std::vector<AppOpLatency>& ops, std::vector<std::string>* out) {
  if (ops.empty()) return;
  out->push_back(fmt::format("{:<10} {:>10} {:>10} {:>10} {:>10} {:>10}", "operation", "count", "mean us", "p50 us",
                             "p99 us", "max us"));
  for (const AppOpLatency& o : ops)
    out->push_back(fmt::format("{:<10} {:>10} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}", o.op, o.count, o.mean_us,
                               o.p50_us, o.p99_us, o.max_us));
}

void StreamLines(const std::vector<AppStream>& streams, std::vector<std::string>* out) {
  if (streams.empty()) return;
  out->push_back(fmt::format("{:<7} {:<7} {:>8} {:>8} {:>9} {:>13}", "stream", "dir", "chunks", "misses", "stall s",
                             "late p99 us"));
  for (const AppStream& s : streams)
    out->push_back(fmt::format("{:<7} {:<7} {:>8} {:>8} {:>9.2f} {:>13.1f}", s.index, s.dir, s.chunks,
                               s.deadline_misses, s.stall_s, s.late_p99_us));
}

}  // namespace

std::vector<std::string> AppTable(const RunResult& run) {
  std::vector<std::string> out;
  if (!run.app) return out;
  const AppFigures& a = *run.app;
  out.push_back(fmt::format("{} from {} to {}: {} file{}, {}, {} thread{}, cache {}{}", a.workload,
                            a.from.empty() ? "-" : a.from, a.to.empty() ? "-" : a.to, a.files, a.files == 1 ? "" : "s",
                            FormatSize(a.bytes), a.threads, a.threads == 1 ? "" : "s",
                            a.cache_state.empty() ? "not checked" : a.cache_state, run.partial ? "  [PARTIAL]" : ""));
  std::string figures =
      fmt::format("elapsed {:.2f} s, {:.2f} MB/s, {:.1f} files/s", a.elapsed_s, a.mb_per_s, a.files_per_s);
  if (a.source_mb_per_s) figures += fmt::format(", source {:.2f} MB/s", *a.source_mb_per_s);
  out.push_back(figures + " (MB/s = 10^6 B/s of payload)");
  if (a.small_file_penalty)
    out.push_back(fmt::format("small-file penalty: {:.2f}x (file-copy MB/s of the same bytes / this MB/s)",
                              *a.small_file_penalty));
  if (a.max_streams) out.push_back(fmt::format("most streams sustained: {}", *a.max_streams));
  if (a.fill_pct) out.push_back(fmt::format("volume fill during the run: {:.1f} %", *a.fill_pct));
  if (a.dataset) out.push_back(DatasetLine(*a.dataset));
  OpLines(a.ops, &out);
  StreamLines(a.streams, &out);
  return out;
}

std::string AppRunTable(const RunResult& run) {
  std::string out;
  for (const std::string& line : AppTable(run)) out += line + "\n";
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (!run.error.empty()) out += "stopped early: " + run.error + "\n";
  return out;
}

}  // namespace nasperf
