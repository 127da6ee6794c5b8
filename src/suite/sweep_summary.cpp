// AnalyseCurves and SummaryFromPoints: a sweep's curves from its points.
#include "suite/sweep_summary.h"

#include <algorithm>

namespace nasperf {

std::vector<SweepCurve> AnalyseCurves(const std::vector<RunResult>& points, const SweepSummary& summary) {
  std::vector<SweepCurve> curves;
  for (uint64_t record : summary.records) {
    for (const std::string& test : summary.tests) {
      std::vector<CurvePoint> curve;
      for (const RunResult& p : points)
        if (p.test == test && p.job.bs == record)
          curve.push_back({p.job.size, p.partial ? 0 : PointMbPerS(p), p.cached.value_or(false)});
      if (curve.empty()) continue;
      std::sort(curve.begin(), curve.end(),
                [](const CurvePoint& a, const CurvePoint& b) { return a.file_bytes < b.file_bytes; });
      // O_DIRECT makes every point uncached only where this machine's cache was the one
      // in play; on a network file system the server's RAM still serves the file.
      const bool bypasses_every_cache = summary.direct && summary.ram.client_caches;
      curves.push_back({test, record, AnalyseCurve(curve, summary.ram, bypasses_every_cache)});
    }
  }
  return curves;
}

SweepSummary SummaryFromPoints(const std::vector<RunResult>& points) {
  SweepSummary s;
  auto add = [](auto& list, const auto& value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
  };
  for (const RunResult& p : points) {
    s.target = p.target;
    s.direct = p.job.direct;
    s.fsync = p.job.fsync;
    s.repeat = p.job.repeat;
    add(s.sizes, p.job.size);
    add(s.records, p.job.bs);
    add(s.tests, p.test);
    const nlohmann::ordered_json& ram = p.inventory.contains("host") ? p.inventory["host"]["memory"]["total_bytes"]
                                                                      : nlohmann::ordered_json();
    if (ram.is_number()) s.ram.client_bytes = ram.get<uint64_t>();
    // smb:// and nfs:// points: their client libraries keep no cache.
    if (p.protocol) s.ram.client_caches = false;
  }
  std::sort(s.sizes.begin(), s.sizes.end());
  std::sort(s.records.begin(), s.records.end());
  s.curves = AnalyseCurves(points, s);
  return s;
}

}  // namespace nasperf
