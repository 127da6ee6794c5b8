// Finds the page-cache knee of a sweep curve from its two plateaus; see cache_analysis.h.
#include "sweep/cache_analysis.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.h"
#include "stats/confidence.h"

namespace nasperf {
namespace {

// Throughputs within this factor of each other are one plateau: run-to-run noise on a
// NAS reaches 10-20 %, while a cache knee is a factor of several.
constexpr double kPlateauFactor = 1.25;
// Points the uncached plateau needs before a fall into it counts as a knee.
constexpr size_t kMinPlateauPoints = 2;

// Multiplications only, so that a zero rate cannot divide by zero.
bool Within(double a, double b) { return a <= b * kPlateauFactor && b <= a * kPlateauFactor; }

std::optional<double> MedianRate(const std::vector<CurvePoint>& points, size_t begin, size_t end) {
  if (begin >= end) return std::nullopt;
  std::vector<double> rates;
  for (size_t i = begin; i < end; ++i) rates.push_back(points[i].mb_per_s);
  return Median(std::move(rates));
}

std::optional<double> MedianOfMarked(const std::vector<CurvePoint>& points, bool cached) {
  std::vector<double> rates;
  for (const CurvePoint& p : points)
    if (p.cached == cached) rates.push_back(p.mb_per_s);
  if (rates.empty()) return std::nullopt;
  return Median(std::move(rates));
}

// Index where the uncached plateau begins: the largest files are the ones no cache
// holds, so the plateau is grown leftwards from the last point.
size_t TailStart(const std::vector<CurvePoint>& points) {
  size_t start = points.size() - 1;
  while (start > 0 && Within(points[start - 1].mb_per_s, *MedianRate(points, start, points.size()))) --start;
  return start;
}

// Small files can start below the midpoint (per-call overhead dominates), so the knee
// is the first fall below it after the curve has been above it.
std::optional<uint64_t> FindKnee(const std::vector<CurvePoint>& points, double midpoint) {
  bool reached = false;
  for (const CurvePoint& p : points) {
    if (p.mb_per_s >= midpoint)
      reached = true;
    else if (reached)
      return p.file_bytes;
  }
  return std::nullopt;
}

CurveAnalysis AnalyseDirect(const std::vector<CurvePoint>& points) {
  CurveAnalysis result;
  result.uncached_mb_per_s = MedianRate(points, 0, points.size());
  result.verdict = "no knee: direct I/O bypasses the page cache, so every point is uncached";
  if (points.size() >= 2) {
    size_t tail = TailStart(points);
    std::optional<double> before = MedianRate(points, 0, tail);
    double after = *MedianRate(points, tail, points.size());
    if (before && *before >= after * kPlateauFactor)
      result.verdict +=
          "; the curve still drops by more than 25 %, which is not a page-cache effect "
          "(perhaps the device's own cache)";
  }
  return result;
}

}  // namespace

std::string CacheRam::Text(const char* separator) const {
  std::string out = client_caches ? "client RAM " + FormatApproxSize(client_bytes) : "no client cache";
  if (nas_bytes) out += separator + std::string("NAS RAM ") + FormatApproxSize(*nas_bytes);
  return out;
}

namespace {

std::string KneeVerdict(uint64_t knee_bytes, const CacheRam& ram) {
  std::string verdict = "knee at " + FormatSize(knee_bytes) + "; " + ram.Text("; ");
  verdict += "; this curve is cache-bound below it";
  if (knee_bytes < ram.total() / 4)
    verdict +=
        "; the knee is well below the RAM: a smaller cache sets it (the kernel's dirty-page limit for "
        "writes, or the NAS's RAM)";
  return verdict;
}

// `rising`: the small files were more than 25 % slower than the large ones.
std::string NoKneeVerdict(const std::vector<CurvePoint>& points, const CacheRam& ram, bool rising) {
  bool all_cached = true;
  for (const CurvePoint& p : points) all_cached = all_cached && p.cached;
  if (all_cached)
    return "no knee: every file fits in RAM (" + FormatApproxSize(ram.total()) +
           "), so every point may be served by the page cache; raise --max past the RAM to see the uncached "
           "plateau";
  std::string range = "from " + FormatSize(points.front().file_bytes) + " to " + FormatSize(points.back().file_bytes);
  if (rising) return "no knee: throughput rises " + range + ", and a cache makes a curve fall, not rise";
  return "no knee: throughput is flat within 25 % " + range;
}

}  // namespace

CurveAnalysis AnalyseCurve(const std::vector<CurvePoint>& points, const CacheRam& ram, bool direct) {
  // A failed point (0 MB/s) measured nothing; kept, it would pose as a knee or split a plateau.
  std::vector<CurvePoint> measured;
  for (const CurvePoint& p : points)
    if (p.mb_per_s > 0) measured.push_back(p);
  if (direct) return AnalyseDirect(measured);

  CurveAnalysis result;
  result.cached_mb_per_s = MedianOfMarked(measured, true);
  result.uncached_mb_per_s = MedianOfMarked(measured, false);
  if (measured.size() < 3) {
    result.verdict = fmt::format("too few points ({}) to find a knee", measured.size());
    return result;
  }

  const bool any_cached = std::any_of(measured.begin(), measured.end(), [](const CurvePoint& p) { return p.cached; });
  if (!any_cached && !ram.server_cache_unknown) {
    result.verdict =
        "no knee: no point could be served from a page cache (every read followed a verified drop), so the "
        "variation is the device's, not a cache's";
    return result;
  }

  size_t tail = TailStart(measured);
  bool rising = false;
  // One point after a fall is not a plateau: noise on a single large file looks the same.
  if (measured.size() - tail < kMinPlateauPoints) {
    const bool slower = measured.back().mb_per_s < measured[measured.size() - 2].mb_per_s;
    result.verdict = slower ? "no knee: only the largest file is slower, and one point is not a plateau; raise --max "
                              "to see whether the fall persists"
                            : "no knee: the largest file differs from the one before by more than 25 %, and one "
                              "point is not a plateau; the curve is too noisy at its end to place a knee";
    return result;
  }
  if (tail > 0) {
    double cached = *MedianRate(measured, 0, tail);
    double uncached = *MedianRate(measured, tail, measured.size());
    rising = cached * kPlateauFactor <= uncached;
    std::optional<uint64_t> knee;
    if (cached >= uncached * kPlateauFactor) knee = FindKnee(measured, (cached + uncached) / 2);
    if (knee) {
      result.knee_bytes = knee;
      result.cached_mb_per_s = cached;
      result.uncached_mb_per_s = uncached;
      result.verdict = KneeVerdict(*knee, ram);
      return result;
    }
  }
  result.verdict = NoKneeVerdict(measured, ram, rising);
  return result;
}

}  // namespace nasperf
