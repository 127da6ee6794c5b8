// MeasurePacing: a paced run's target and achieved rates, shortfall and service times.
#include "core/pacing_facts.h"

#include <algorithm>

#include "core/runner.h"
#include "stats/histogram.h"

namespace nasperf {
namespace {

double MeanOf(const std::vector<BlockSizeShare>& mix, uint64_t bs) {
  if (mix.empty()) return static_cast<double>(bs);
  double bytes = 0, weight = 0;
  for (const BlockSizeShare& s : mix) {
    bytes += static_cast<double>(s.bytes) * s.weight_pct;
    weight += s.weight_pct;
  }
  return weight > 0 ? bytes / weight : static_cast<double>(bs);
}

}  // namespace

double MeanIoBytes(const JobSpec& job) {
  const double both = MeanOf(job.bs_split, job.bs);
  const double read = job.bs_read.empty() ? both : MeanOf(job.bs_read, job.bs);
  const double write = job.bs_write.empty() ? both : MeanOf(job.bs_write, job.bs);
  if (!DoesWrites(job.rw)) return read;
  if (!DoesReads(job.rw)) return write;
  const double read_share = job.read_mix_pct / 100.0;
  return read_share * read + (1 - read_share) * write;
}

double ScheduledIops(const JobSpec& job) {
  const Pacing& p = job.pacing;
  if (!p.scheduled()) return 0;
  // One thread's spacing between intended starts; think time is not on the schedule (a
  // closed loop: what it gives depends on the service time, and is measured, not asked).
  const double per_io_s =
      std::max(p.rate_iops > 0 ? job.threads / p.rate_iops : 0.0,
               p.rate_mb_per_s > 0 ? MeanIoBytes(job) * job.threads / (p.rate_mb_per_s * 1e6) : 0.0);
  return per_io_s > 0 ? job.threads / per_io_s : 0;
}

void JudgePacing(const JobSpec& job, double seconds, uint32_t ranks, PacingFacts& f) {
  const bool by_bytes = f.target_mb_per_s > 0;
  const double target = by_bytes ? f.target_mb_per_s : f.target_iops;
  const double achieved = by_bytes ? f.achieved_mb_per_s : f.achieved_iops;
  f.shortfall_pct = target > 0 && achieved < target ? (target - achieved) / target * 100 : 0;
  f.excess_pct = target > 0 && achieved > target ? (achieved - target) / target * 100 : 0;
  double over_allowed_pct = kSustainedWithinPct;
  if (target > 0 && seconds > 0) {
    const double edge_iops = static_cast<double>(std::max<uint32_t>(ranks, 1)) * job.threads / seconds;
    const double edge = by_bytes ? edge_iops * MeanIoBytes(job) / 1e6 : edge_iops;
    over_allowed_pct = std::max(over_allowed_pct, edge / target * 100);
  }
  f.sustained = f.shortfall_pct <= kSustainedWithinPct && f.excess_pct <= over_allowed_pct;
}

PacingFacts MeasurePacing(const JobSpec& job, const std::optional<DirectionResult>& read,
                          const std::optional<DirectionResult>& write, double seconds,
                          std::shared_ptr<const LatencyHistogram> read_service,
                          std::shared_ptr<const LatencyHistogram> write_service) {
  PacingFacts f;
  const double iops = ScheduledIops(job);
  // A byte rate is a target in MB/s, an I/O rate one in IOPS; think time alone sets none.
  if (job.pacing.rate_mb_per_s > 0)
    f.target_mb_per_s = iops * MeanIoBytes(job) / 1e6;
  else
    f.target_iops = iops;
  uint64_t ios = 0, bytes = 0;
  for (const auto* d : {&read, &write})
    if (*d) {
      ios += (*d)->ios;
      bytes += (*d)->bytes;
    }
  if (seconds > 0) {
    f.achieved_iops = static_cast<double>(ios) / seconds;
    f.achieved_mb_per_s = static_cast<double>(bytes) / seconds / 1e6;
  }
  JudgePacing(job, seconds, 1, f);
  // Service time, summarised like the directions' latencies.
  auto service = [seconds](std::shared_ptr<const LatencyHistogram> h) -> std::optional<LatencySummary> {
    if (!h || h->count() == 0) return std::nullopt;
    return SummariseDirection(0, h->count(), seconds, 0, h).lat;
  };
  f.read_service = service(read_service);
  f.write_service = service(write_service);
  if (f.read_service) f.read_service_histogram = std::move(read_service);
  if (f.write_service) f.write_service_histogram = std::move(write_service);
  return f;
}

}  // namespace nasperf
