// PacingText: a paced run's service-time rows and its rate line.
#include "report/pacing_text.h"

#include <fmt/format.h>

#include "core/pacing_facts.h"

namespace nasperf {
namespace {

// A rate as the user would type it: whole above 100, a few digits below.
std::string Rate(double value) { return value >= 100 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value); }

// In the run table's columns (report/table_report.cpp), MB/s and IOPS left blank.
std::string ServiceLine(const char* label, const LatencySummary& s) {
  return fmt::format("{:<6} {:>10} {:>11} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>10.1f}\n", label, "", "",
                     s.mean_us, s.p50_us, s.p90_us, s.p99_us, s.p999_us, s.max_us);
}

// What set the schedule, as the options were given: "--rate-iops 5000".
std::string ScheduleText(const Pacing& pacing) {
  if (pacing.rate_iops > 0) return fmt::format("--rate-iops {:.10g}", pacing.rate_iops);
  if (pacing.rate_mb_per_s > 0) return fmt::format("--rate {:.10g} MB/s", pacing.rate_mb_per_s);
  return "";
}

// The think time as it ran (core/think_gate.h): "--think 1 ms after every 8 I/Os had
// completed (a closed loop: each burst's service time, then the think)".
std::string ThinkText(const Pacing& pacing) {
  return fmt::format("--think {:g} ms after every {} I/O{} had completed (a closed loop: each burst's service time, "
                     "then the think)",
                     pacing.think_s * 1e3, pacing.burst, pacing.burst == 1 ? "" : "s");
}

}  // namespace

std::string PacingText(const RunResult& run) {
  if (!run.pacing) return "";
  const PacingFacts& p = *run.pacing;
  std::string out;
  if (p.read_service || p.write_service) {
    out += "service time, from each I/O's submit (the latencies above are from its intended start):\n";
    if (p.read_service) out += ServiceLine("read", *p.read_service);
    if (p.write_service) out += ServiceLine("write", *p.write_service);
  }
  const uint32_t threads = run.job.threads ? run.job.threads : 1;
  // Many clients: the rates are the job's total over every rank's threads.
  const uint32_t ranks = run.cluster && run.cluster->ranks > 1 ? static_cast<uint32_t>(run.cluster->ranks) : 1;
  const std::string over =
      ranks > 1 ? fmt::format("{} ranks x {} thread{}", ranks, threads, threads == 1 ? "" : "s")
                : fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
  const bool by_bytes = p.target_mb_per_s > 0;
  const double target = by_bytes ? p.target_mb_per_s : p.target_iops;
  if (target <= 0) {
    // Think time alone: nothing was scheduled, so there is no target to have sustained.
    out += fmt::format("think: {}: {} IOPS, {} MB/s achieved, the job's total over {}\n", ThinkText(run.job.pacing),
                       Rate(p.achieved_iops), Rate(p.achieved_mb_per_s), over);
    return out;
  }
  const double achieved = by_bytes ? p.achieved_mb_per_s : p.achieved_iops;
  const char* unit = by_bytes ? "MB/s" : "IOPS";
  std::string split = fmt::format("{}, the job's total over {}, {} per thread", ScheduleText(run.job.pacing), over,
                                  Rate(target / threads / ranks));
  if (run.job.pacing.think_s > 0) split += "; " + ThinkText(run.job.pacing);
  if (p.sustained)
    out += fmt::format("paced: {} {} scheduled ({}), {} achieved (sustained: within {:g} %)\n", Rate(target), unit,
                       split, Rate(achieved), kSustainedWithinPct);
  else if (p.excess_pct > 0)
    out += fmt::format("paced: overshot {} {}: {} achieved ({:.1f} % over; scheduled by {})\n", Rate(target), unit,
                       Rate(achieved), p.excess_pct, split);
  else
    out += fmt::format("paced: could not sustain {} {}: {} achieved ({:.1f} % short; scheduled by {})\n", Rate(target),
                       unit, Rate(achieved), p.shortfall_pct, split);
  return out;
}

}  // namespace nasperf
