// client-limited: the client's own ceiling (null: through the same engine) or its CPU was
// what held the end-to-end figure.
#include <fmt/format.h>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {

std::optional<Cause> ClientLimited(const Evidence& e, const Waterfall& w) {
  if (!w.end_to_end_mb_per_s) return std::nullopt;
  const PathCeilings& p = w.end_to_end_path();
  const char* dir = w.end_to_end_is_read ? "read" : "write";
  Cause c;
  c.rule = "client-limited";
  c.layer = kLayerClient;
  if (w.cap_layer == kLayerClient && p.client) {
    c.summary = fmt::format("the client is the cap: its own ceiling (null:) is {} {}, and the protocol reached {}",
                            Mb(*p.client), dir, Mb(*w.end_to_end_mb_per_s));
    c.evidence.push_back(fmt::format("client ceiling, null: 1M sequential {}: {}", dir, Mb(*p.client)));
    if (e.client_cpu_us_per_io)
      c.evidence.push_back(fmt::format("client CPU per I/O: {:.1f} us", *e.client_cpu_us_per_io));
    c.evidence.push_back(fmt::format("protocol 1M sequential {}: {}", dir, Mb(*w.end_to_end_mb_per_s)));
    return c;
  }
  // client_cpu_busy_pct is nasperf's own process (its rusage over the target steps, as a
  // share of all the client's CPUs), not the machine's: the sentences say whose it is.
  std::optional<double> busy = e.client_cpu_busy_pct;
  const bool own_process = busy.has_value();
  if (!busy && e.client.measured && e.client.cpu_all) busy = e.client.cpu_all->busy_pct;
  // The client's CPU busy, and the protocol clearly short of every layer beneath it (the
  // network measured, so the short fall is not an unmeasured layer's).
  if (!busy || *busy < kCpuSaturatedPct || !p.network || !p.lowest_below ||
      *w.end_to_end_mb_per_s >= kClientShortRatio * *p.lowest_below)
    return std::nullopt;
  c.layer = kLayerClientCpu;
  const std::string whose = own_process ? fmt::format("nasperf's own process kept {} of the client's CPUs busy", Pct(*busy))
                                        : fmt::format("the client's CPUs {} busy", Pct(*busy));
  c.summary = fmt::format("the client's CPU is the cap: {} while the protocol reached {} of the {} beneath it", whose,
                          Mb(*w.end_to_end_mb_per_s), Mb(*p.lowest_below));
  c.evidence.push_back(
      own_process ? fmt::format("client CPU: nasperf's own process {} of all CPUs during the target steps", Pct(*busy))
                  : fmt::format("client CPU: all CPUs {} busy during the target steps", Pct(*busy)));
  c.evidence.push_back(fmt::format("protocol 1M sequential {}: {}", dir, Mb(*w.end_to_end_mb_per_s)));
  c.evidence.push_back(fmt::format("lowest layer beneath ({}): {}", p.lowest_below_layer, Mb(*p.lowest_below)));
  return c;
}

}  // namespace nasperf::diagnose
