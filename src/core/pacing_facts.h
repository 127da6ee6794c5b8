// What a paced run asked and achieved (RunResult::pacing): the schedule's rate against the
// measured one, whether it was sustained, and the service times beside the latencies.
#pragma once

#include <memory>

#include "nasperf/job.h"
#include "nasperf/result.h"

namespace nasperf {

// Achieved within this % of the target counts as sustained (issue 19's promise).
inline constexpr double kSustainedWithinPct = 1.0;

// The mean bytes per I/O the job's sizes give (the mix's weighted mean; per direction
// weighted by the read share): what a byte rate is in I/Os.
double MeanIoBytes(const JobSpec& job);

// The total I/Os per second the job's rate asks (core/pacer.h); 0 without a rate. Think
// time is a closed loop and asks no rate (core/think_gate.h).
double ScheduledIops(const JobSpec& job);

// Sets f.shortfall_pct, f.excess_pct and f.sustained from f's target and achieved rates
// over a window of `seconds`: sustained when achieved is within kSustainedWithinPct of the
// target either way. Over, the window's edge is allowed: each thread's schedule (of
// `ranks` x job.threads threads) puts an I/O at the window's very start, so a window can
// hold one I/O per thread more than rate x window. No target (think time alone): nothing
// to sustain, and `sustained` stays true.
void JudgePacing(const JobSpec& job, double seconds, uint32_t ranks, PacingFacts& f);

// The facts of a paced run from its directions (latency from intended start, measured
// over `seconds`) and the service-time histograms (from submit; null when none).
PacingFacts MeasurePacing(const JobSpec& job, const std::optional<DirectionResult>& read,
                          const std::optional<DirectionResult>& write, double seconds,
                          std::shared_ptr<const LatencyHistogram> read_service,
                          std::shared_ptr<const LatencyHistogram> write_service);

}  // namespace nasperf
