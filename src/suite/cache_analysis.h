// Cache analysis of one sweep curve (throughput against file size): where the page
// cache stops helping. Pure arithmetic on the points, so it is tested with synthetic
// curves; the sweep command supplies the points and the RAM sizes.
#pragma once

#include <cstdint>
#include <vector>

#include "model/sweep_summary.h"

namespace nasperf {

struct CurvePoint {
  uint64_t file_bytes = 0;
  double mb_per_s = 0;  // 10^6 B/s
  bool cached = false;  // buffered and the file fits in the RAM that can cache it
};

// `points` in increasing file size. `direct`: the sweep ran with O_DIRECT.
CurveAnalysis AnalyseCurve(const std::vector<CurvePoint>& points, const CacheRam& ram, bool direct);

}  // namespace nasperf
