// Table rendering for run and quick.
#include "report/table_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/units.h"
#include "proto/schemes.h"
#include "report/app_text.h"
#include "report/pacing_text.h"
#include "report/rank_table.h"
#include "stats/confidence.h"
#include "report/telemetry_text.h"
#include "workload/block_size_mix.h"

namespace nasperf {
namespace {

std::string DirectionLine(const std::string& label, const DirectionResult& d, int label_width = 6) {
  return fmt::format("{:<{}} {:>10.2f} {:>11.0f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>10.1f}\n", label,
                     label_width, d.mb_per_s, d.iops, d.lat.mean_us, d.lat.p50_us, d.lat.p90_us, d.lat.p99_us,
                     d.lat.p999_us, d.lat.max_us);
}

// "4K", "64K", "1M": a size as a row label (bytes when not whole KiB).
std::string ShortSize(uint64_t bytes) {
  if (bytes && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes && bytes % 1024 == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes) + "B";
}

// The job's sizes and offsets as they ran: the block size, or each direction's mix; the
// share of random I/Os when --random set it, the distribution and alignment when given.
std::string ShapeLabel(const JobSpec& job) {
  std::string out;
  if (!HasBlockSizeMix(job)) {
    out = FormatSize(job.bs);
  } else if (job.bs_read.empty() && job.bs_write.empty()) {
    out = "bs " + BlockSizeMixText(job.bs_split);
  } else {
    const BlockSizePlan plan = PlanBlockSizes(job);
    if (DoesReads(job.rw)) out = "reads " + BlockSizeMixText(plan.read);
    if (DoesWrites(job.rw)) out += (out.empty() ? "" : ", ") + std::string("writes ") + BlockSizeMixText(plan.write);
  }
  if (job.random_pct) out += fmt::format(", {} % random", *job.random_pct);
  if (job.dist.kind != OffsetDistribution::Kind::kUniform) out += ", " + ToString(job.dist);
  if (job.align) out += ", aligned to " + FormatSize(job.align);
  return out;
}

// One line per size and direction of a mix, under the totals.
std::string PerSizeLines(const RunResult& run, int label_width) {
  std::string out;
  for (const SizeResult& size : run.per_size) {
    if (size.read) out += DirectionLine(ShortSize(size.bs) + " read", *size.read, label_width);
    if (size.write) out += DirectionLine(ShortSize(size.bs) + " write", *size.write, label_width);
  }
  return out;
}

}  // namespace

std::string ProtocolLine(const RunResult& run) {
  if (!run.protocol) return "";
  const ProtocolFacts& p = *run.protocol;
  // What each protocol calls the thing it serves.
  const Scheme* scheme = SchemeOfProtocol(p.protocol);
  const std::string noun = scheme ? scheme->noun : "share";
  std::string out = "protocol: " + p.label();
  if (!p.server.empty()) out += " to " + p.server;
  if (!p.share.empty()) out += fmt::format("{} {} {}", p.server.empty() ? "" : ",", noun, p.share);
  std::string options;
  for (const auto& [k, v] : p.options) options += (options.empty() ? "" : ", ") + (v.empty() ? k : k + " " + v);
  if (!options.empty()) out += " (" + options + ")";
  return out + "\n";
}

std::string DataLine(const RunResult& run) {
  std::string out;
  if (run.data) {
    const DataFacts& d = *run.data;
    if (d.pattern == "zero") out = std::string("data: zero (") + kZeroDataNote + ")";
    else if (d.pattern == "verify")
      out = "data: --verify check data, every 8 bytes keyed to its offset and a fresh seed";
    else out = "data: " + d.pattern + ", every 4 KiB unique (offset, seed and I/O number stamped)";
    if (d.compress_ratio > 0)
      out += fmt::format("; zstd compresses a written block {:.2f}:1 ({})", d.compress_ratio,
                         FormatSize(d.sample_bytes));
    out += "\n";
  }
  if (run.job.seed)
    out += fmt::format("seed: {} (--seed {} reruns these offsets and data)\n", *run.job.seed, *run.job.seed);
  return out;
}

std::string RepeatsLine(const RunResult& run) {
  if (run.repeats.empty()) return "";
  std::vector<double> totals = RepeatTotals(run);
  RepeatSpread spread = SummariseRepeats(totals);
  std::string out = fmt::format("median of {} repeats", spread.count);
  // A series --repeat-until stopped had no fixed n: the t interval's formula assumes one.
  const bool stopped_on_data = run.repeat_until_met == true;
  if (spread.ci95)
    out += fmt::format("; 95 % CI of the mean {:.2f}-{:.2f} MB/s ({}{}{})", spread.ci95->low, spread.ci95->high,
                       kConfidenceMethod, stopped_on_data ? "; " : "", stopped_on_data ? kAfterDataDependentStop : "");
  out += fmt::format("; spread {:.1f} %{}; each (MB/s):", spread.spread_pct,
                     spread.noisy ? fmt::format(" [NOISY: over {:g} %]", kNoisySpreadPct) : "");
  for (double v : totals) out += fmt::format(" {:.2f}", v);
  return out + "\n";
}

namespace {

// A network test (`nasperf net`): streams and seconds, MB/s and Gbit/s per direction; no
// IOPS or latency columns, which would only show zeros.
std::string NetRunTable(const RunResult& run) {
  const JobSpec& job = run.job;
  const char* dir = job.rw == AccessPattern::kWrite ? "up" : job.rw == AccessPattern::kRead ? "down" : "both";
  std::string out = fmt::format("net {} to {}: {} stream{} per direction, {:g} s, {} per send{}\n", dir, run.target,
                                job.threads, job.threads == 1 ? "" : "s", job.time_s, FormatSize(job.bs),
                                run.partial ? "  [PARTIAL]" : "");
  out += fmt::format("{:<12} {:>10} {:>9} {:>14} {:>9}\n", "", "MB/s", "Gbit/s", "bytes", "seconds");
  auto line = [&](const char* label, const DirectionResult& d) {
    out += fmt::format("{:<12} {:>10.2f} {:>9.3f} {:>14} {:>9.2f}\n", label, d.mb_per_s, d.mb_per_s * 8 / 1000,
                       d.bytes, d.seconds);
  };
  if (DidIo(run.write)) line("up (write)", *run.write);
  if (DidIo(run.read)) line("down (read)", *run.read);
  out += "MB/s = 10^6 B/s, Gbit/s = 10^9 bit/s, as the receiving end counted\n";
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (!run.error.empty()) out += "stopped early: " + run.error + "\n";
  out += TelemetryText(run.telemetry);
  return out;
}

}  // namespace

std::string RunTable(const RunResult& run) {
  if (run.engine == "net") return NetRunTable(run);
  if (run.app) return AppRunTable(run);
  const JobSpec& job = run.job;
  // A protocol engine's library keeps no client cache: neither word would be true.
  const char* io = run.protocol ? "no client cache" : job.direct ? "direct" : "buffered";
  const uint32_t qd_run = QueueDepthRun(run);
  const std::string asked = qd_run != job.qd ? fmt::format(" (--qd {} asked)", job.qd) : "";
  std::string out;
  if (!run.job_name.empty()) out += fmt::format("job {} (group {})\n", run.job_name, run.job_group);
  const std::string span = job.shared_file && job.threads > 1
                               ? fmt::format("{} of one file shared by {} threads", FormatSize(job.size), job.threads)
                               : FormatSize(job.size) + " per thread";
  out += fmt::format("{} {} QD{} T{}{} on {} — {}, {}{}, {}{}\n", ToString(job.rw), ShapeLabel(job), qd_run,
                     job.threads, asked, run.target, run.engine, io, job.fsync ? " + fsync" : "", span,
                     run.partial ? "  [PARTIAL]" : "");
  out += ProtocolLine(run);
  out += DataLine(run);
  // --steady: the direction rows are the whole run and a row of its own is the window,
  // each labelled, so neither is read as the other (issue 33 item 7).
  const bool window_row = run.steady && run.steady->mean > 0;
  const int label_width = window_row ? 17 : run.per_size.empty() ? 6 : 10;
  const char* whole = window_row ? ", whole run" : "";
  out += fmt::format("{:<{}} {:>10} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}\n", "", label_width, "MB/s", "IOPS",
                     "mean us", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us");
  if (DidIo(run.read)) out += DirectionLine(std::string("read") + whole, *run.read, label_width);
  if (DidIo(run.write)) out += DirectionLine(std::string("write") + whole, *run.write, label_width);
  if (window_row) out += SteadyWindowRow(run, label_width);
  out += PerSizeLines(run, label_width);
  out += PacingText(run);
  double seconds = run.read ? run.read->seconds : run.write ? run.write->seconds : 0;
  out += fmt::format("{:.2f} s measured; CPU {:.1f} % user, {:.1f} % sys (of one core); MB/s = 10^6 B/s\n", seconds,
                     run.cpu.user_pct, run.cpu.sys_pct);
  out += WriteFlushLine(run);
  out += RepeatsLine(run);
  out += SteadyLine(run);
  out += RepeatUntilLine(run);
  out += RanksText(run);
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (!run.error.empty()) out += "stopped early: " + run.error + "\n";
  out += TelemetryText(run.telemetry);
  return out;
}

std::string GroupTable(const GroupTotals& t) {
  std::string names;
  for (const std::string& n : t.jobs) names += (names.empty() ? "" : ", ") + n;
  std::string out = fmt::format("group {}: {} job{} ({}) started together; summed over the group's {:.2f} s window\n",
                                t.group, t.jobs.size(), t.jobs.size() == 1 ? "" : "s", names, t.seconds);
  out += fmt::format("{:<6} {:>10} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}\n", "", "MB/s", "IOPS", "mean us",
                     "p50 us", "p90 us", "p99 us", "p99.9 us", "max us");
  // Without every run's histogram the group's percentiles are not known: dashes, not zeros.
  auto line = [&](const char* label, const DirectionResult& d) {
    if (t.latency_merged) return DirectionLine(label, d);
    return fmt::format("{:<6} {:>10.2f} {:>11.0f} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}\n", label, d.mb_per_s, d.iops,
                       "-", "-", "-", "-", "-", "-");
  };
  if (t.read) out += line("read", *t.read);
  if (t.write) out += line("write", *t.write);
  if (!t.latency_merged) out += "note: no latency: a run of the group has no stored histogram to merge\n";
  return out;
}

std::string WriteFlushText(const RunResult& run) {
  const std::string flush = JobWriteFlush(run);
  if (flush.empty()) return "";
  if (flush == kWriteFlushInClock) return "flushed (fsync inside the clock)";
  if (run.protocol) return "not flushed (the server's cache: --fsync flushes inside the clock)";
  if (run.job.direct) return "not flushed (O_DIRECT passes this machine's page cache, not the device's cache)";
  return "not flushed (page cache)";
}

std::string WriteFlushLine(const RunResult& run) {
  const std::string text = WriteFlushText(run);
  return text.empty() ? "" : "writes: " + text + "\n";
}

std::string SteadyWindowRow(const RunResult& run, int label_width) {
  const SteadyFacts& f = *run.steady;
  const bool iops = run.job.steady.metric == SteadyRule::Metric::kIops;
  // The rule watches one figure, read and write together: the other columns are not its.
  return fmt::format("{:<{}} {:>10} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}\n",
                     f.reached ? "steady window" : "last window", label_width,
                     iops ? "-" : fmt::format("{:.2f}", f.mean), iops ? fmt::format("{:.0f}", f.mean) : "-", "-", "-",
                     "-", "-", "-", "-");
}

std::string SteadyLine(const RunResult& run) {
  if (!run.steady) return "";
  const SteadyFacts& f = *run.steady;
  const SteadyRule& rule = run.job.steady;
  const bool iops = rule.metric == SteadyRule::Metric::kIops;
  const std::string what = iops ? fmt::format("{:.0f} IOPS", f.mean) : fmt::format("{:.2f} MB/s", f.mean);
  if (f.reached)
    return fmt::format("steady: reached at {:.0f} s: the last {:g} s within {:.2f} % of their mean {} (asked {:g} %); "
                       "stopped there. Rows: \"whole run\" is every measured second, \"steady window\" the last "
                       "{:g} s (read and write together)\n",
                       f.at_s, rule.window_s, f.spread_pct, what, rule.tolerance_pct, rule.window_s);
  if (f.mean <= 0)
    return fmt::format("steady: not steady: --time ended before a full {:g} s window of figures\n", rule.window_s);
  return fmt::format("steady: not steady: --time ended first; the last {:g} s spread {:.2f} % from their mean {} "
                     "(asked {:g} %). Rows: \"whole run\" is every measured second, \"last window\" the last {:g} s "
                     "(read and write together)\n",
                     rule.window_s, f.spread_pct, what, rule.tolerance_pct, rule.window_s);
}

std::string RepeatUntilLine(const RunResult& run) {
  if (!run.repeat_until_met) return "";
  const size_t repeats = run.repeats.empty() ? 1 : run.repeats.size();
  // The minimum is said where it is known (a run stored before it was recorded has none).
  const std::string from =
      run.repeat_until_min_repeats ? fmt::format(" (checked from {} repeats on)", run.repeat_until_min_repeats) : "";
  if (*run.repeat_until_met)
    return fmt::format(
        "repeat-until: the 95 % interval's half-width got under {:g} % of the median after {} repeats{}\n",
        run.job.repeat_until_ci_pct, repeats, from);
  return fmt::format("repeat-until: not met: the 95 % interval's half-width was still {:g} % of the median or more "
                     "after {} repeat{} (the cap is --repeat {})\n",
                     run.job.repeat_until_ci_pct, repeats, repeats == 1 ? "" : "s", run.job.repeat);
}

namespace {

// A quick row's label from what ran: the suite's test with the queue depth its engine
// used. "SEQ1M Q1T1*" for SEQ1M Q8T1 on a synchronous engine, with a footnote saying so.
std::string RowLabel(const QuickRow& row, std::vector<std::string>* footnotes) {
  const RunResult* r = row.read ? row.read : row.write;
  if (!r || QueueDepthRun(*r) == r->job.qd) return row.label;
  const uint32_t ran = QueueDepthRun(*r);
  std::string label = SuiteTestLabel(IsRandom(r->job.rw), r->job.bs, ran, r->job.threads) + "*";
  footnotes->push_back(fmt::format("* {} is the test {}, run at Q{}{}", label, row.label, ran,
                                   ran == 1 ? ": " + r->engine + " is synchronous" : ""));
  return label;
}

}  // namespace

std::string QuickTable(const std::string& heading, const std::vector<QuickRow>& rows) {
  std::string out = heading + "\n";
  std::vector<std::string> footnotes;
  for (const QuickRow& row : rows) {
    const RunResult* with_facts = row.read && row.read->protocol     ? row.read
                                  : row.write && row.write->protocol ? row.write
                                                                     : nullptr;
    if (with_facts) {
      out += ProtocolLine(*with_facts);
      break;
    }
  }
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
    out += fmt::format("{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12}", RowLabel(row, &footnotes),
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
  for (const std::string& f : footnotes) out += f + "\n";
  // The write columns' flush state, from the write runs (one line when they agree).
  std::vector<std::string> flushes;
  for (const QuickRow& row : rows)
    if (row.write)
      if (std::string t = WriteFlushText(*row.write);
          !t.empty() && std::find(flushes.begin(), flushes.end(), t) == flushes.end())
        flushes.push_back(t);
  if (flushes.size() == 1) out += "Write columns: " + flushes.front() + "\n";
  for (const QuickRow& row : rows)
    if (flushes.size() > 1 && row.write && !WriteFlushText(*row.write).empty())
      out += "Write " + row.label + ": " + WriteFlushText(*row.write) + "\n";
  return out;
}

}  // namespace nasperf
