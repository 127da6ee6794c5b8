// Finds the page-cache knee of a sweep curve from its two plateaus; see cache_analysis.h.
#include "suite/cache_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <fmt/format.h>

#include "base/units.h"
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

// A lone point off its plateau: its two neighbours agree within the plateau factor and
// both lie more than 25 % above it (a dip: one slow file on the cached plateau) or below
// it (a spike). One point is not a plateau, so it can be neither a knee nor a plateau's end.
bool Lone(const std::vector<CurvePoint>& points, size_t i) {
  if (i == 0 || i + 1 >= points.size()) return false;
  const double left = points[i - 1].mb_per_s, right = points[i + 1].mb_per_s, rate = points[i].mb_per_s;
  if (!Within(left, right)) return false;
  const bool dip = left >= rate * kPlateauFactor && right >= rate * kPlateauFactor;
  const bool spike = rate >= left * kPlateauFactor && rate >= right * kPlateauFactor;
  return dip || spike;
}

struct Segments {
  std::vector<Knee> knees;
  std::vector<uint64_t> outliers;
};

// Finds the last knee of `points`: the first point from which every later one is below
// the midpoint of the plateaus either side (small files can start below it too, per-call
// overhead, so the higher plateau begins where the curve first reaches the midpoint).
// Points below the midpoint between that start and the knee are dips the curve recovered
// from: outliers, not knees. Then looks for further knees on either side.
void Segment(const std::vector<CurvePoint>& points, Segments& out) {
  if (points.size() < 2 * kMinPlateauPoints) return;
  const size_t tail = TailStart(points);
  if (tail == 0 || points.size() - tail < kMinPlateauPoints) return;
  const double before = *MedianRate(points, 0, tail), after = *MedianRate(points, tail, points.size());
  if (before < after * kPlateauFactor) return;
  const double midpoint = (before + after) / 2;
  size_t knee = points.size();
  while (knee > 0 && points[knee - 1].mb_per_s < midpoint) --knee;
  size_t first_above = 0;
  while (first_above < knee && points[first_above].mb_per_s < midpoint) ++first_above;
  std::vector<CurvePoint> left(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(first_above));
  std::vector<double> plateau;
  std::vector<uint64_t> dips;
  for (size_t i = first_above; i < knee; ++i) {
    if (points[i].mb_per_s >= midpoint) {
      plateau.push_back(points[i].mb_per_s);
      left.push_back(points[i]);
    } else {
      dips.push_back(points[i].file_bytes);
    }
  }
  if (plateau.size() < kMinPlateauPoints || points.size() - knee < kMinPlateauPoints) return;
  out.outliers.insert(out.outliers.end(), dips.begin(), dips.end());
  out.knees.push_back({points[knee].file_bytes, Median(plateau), *MedianRate(points, knee, points.size()), ""});
  Segment(left, out);
  Segment(std::vector<CurvePoint>(points.begin() + static_cast<std::ptrdiff_t>(knee), points.end()), out);
}

// The RAM a knee at `file_bytes` matches: the nearest (by ratio) of the caches that
// exist, if within a factor of 2 (sizes double from point to point, and a partly cached
// point may sit either side of the RAM's size). Client and NAS RAM are matched each on
// its own: over NFS or SMB the NAS's cache holds much of what the client's does.
std::string MatchingRam(uint64_t file_bytes, const CacheRam& ram) {
  std::vector<std::pair<std::string, uint64_t>> caches;
  if (ram.client_caches && ram.client_bytes) caches.emplace_back("client RAM", ram.client_bytes);
  if (ram.nas_bytes && *ram.nas_bytes) caches.emplace_back("NAS RAM", *ram.nas_bytes);
  std::string best;
  double best_distance = 1.0 + 1e-9;  // |log2(file / RAM)| <= 1
  for (const auto& [name, bytes] : caches) {
    const double distance = std::fabs(std::log2(static_cast<double>(file_bytes) / static_cast<double>(bytes)));
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
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

std::string KneeVerdict(uint64_t knee_bytes, const CacheRam& ram) {
  std::string verdict = "knee at " + FormatSize(knee_bytes) + "; " + ram.Text("; ");
  verdict += "; this curve is cache-bound below it";
  if (knee_bytes < ram.total() / 4)
    verdict +=
        "; the knee is well below the RAM: a smaller cache sets it (the kernel's dirty-page limit for "
        "writes, or the NAS's RAM)";
  return verdict;
}

// `rising`: the small files were more than 25 % slower than the large ones; `falling`:
// more than 25 % faster, but not on plateaus of two points each.
std::string NoKneeVerdict(const std::vector<CurvePoint>& points, const CacheRam& ram, bool rising, bool falling) {
  bool all_cached = true;
  for (const CurvePoint& p : points) all_cached = all_cached && p.cached;
  if (all_cached)
    return "no knee: every file fits in RAM (" + FormatApproxSize(ram.total()) +
           "), so every point may be served by the page cache; raise --max past the RAM to see the uncached "
           "plateau";
  std::string range = "from " + FormatSize(points.front().file_bytes) + " to " + FormatSize(points.back().file_bytes);
  if (rising) return "no knee: throughput rises " + range + ", and a cache makes a curve fall, not rise";
  if (falling)
    return "no knee: throughput falls by more than 25 % " + range +
           ", but a knee needs two points or more on each plateau, and one point is not a plateau";
  return "no knee: throughput is flat within 25 % " + range;
}

// Lone dips and spikes, moved into result.outliers; returns the points left. Left in, one
// slow file on the cached plateau poses as the knee or ends the plateau.
std::vector<CurvePoint> WithoutLonePoints(const std::vector<CurvePoint>& measured, CurveAnalysis& result) {
  std::vector<CurvePoint> clean;
  for (size_t i = 0; i < measured.size(); ++i) {
    if (Lone(measured, i))
      result.outliers.push_back(measured[i].file_bytes);
    else
      clean.push_back(measured[i]);
  }
  return clean;
}

// The figures and verdict of a curve with knees: the last knee sets the plateaus, the
// earlier ones are named in the verdict. `result.outliers` is sorted.
void DescribeKnees(const std::vector<CurvePoint>& clean, std::vector<Knee> knees, const CacheRam& ram,
                   CurveAnalysis& result) {
  std::sort(knees.begin(), knees.end(), [](const Knee& a, const Knee& b) { return a.file_bytes < b.file_bytes; });
  for (Knee& k : knees) k.ram = MatchingRam(k.file_bytes, ram);
  const Knee& last = knees.back();
  std::vector<double> before;
  for (const CurvePoint& p : clean)
    if (p.file_bytes < last.file_bytes &&
        !std::binary_search(result.outliers.begin(), result.outliers.end(), p.file_bytes))
      before.push_back(p.mb_per_s);
  result.knee_bytes = last.file_bytes;
  result.cached_mb_per_s = Median(before);
  result.uncached_mb_per_s = last.after_mb_per_s;
  result.verdict = KneeVerdict(last.file_bytes, ram);
  for (size_t i = 0; i + 1 < knees.size(); ++i) {
    const Knee& k = knees[i];
    result.verdict += fmt::format("; an earlier knee at {} ({:.0f} -> {:.0f} MB/s{})", FormatSize(k.file_bytes),
                                  k.before_mb_per_s, k.after_mb_per_s, k.ram.empty() ? "" : ", " + k.ram);
  }
  result.knees = std::move(knees);
}

// The verdict of a curve without a knee whose uncached plateau starts at `tail`.
std::string NoKneeVerdictFrom(const std::vector<CurvePoint>& clean, size_t tail, const CacheRam& ram) {
  bool rising = false, falling = false;
  if (tail > 0) {
    double cached = *MedianRate(clean, 0, tail);
    double uncached = *MedianRate(clean, tail, clean.size());
    rising = cached * kPlateauFactor <= uncached;
    falling = cached >= uncached * kPlateauFactor;
  }
  return NoKneeVerdict(clean, ram, rising, falling);
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

  std::vector<CurvePoint> clean = WithoutLonePoints(measured, result);
  size_t tail = TailStart(clean);
  // One point after a fall is not a plateau: noise on a single large file looks the same.
  if (clean.size() - tail < kMinPlateauPoints) {
    const bool slower = clean.back().mb_per_s < clean[clean.size() - 2].mb_per_s;
    result.verdict = slower ? "no knee: only the largest file is slower, and one point is not a plateau; raise --max "
                              "to see whether the fall persists"
                            : "no knee: the largest file differs from the one before by more than 25 %, and one "
                              "point is not a plateau; the curve is too noisy at its end to place a knee";
    return result;
  }
  Segments segments;
  Segment(clean, segments);
  result.outliers.insert(result.outliers.end(), segments.outliers.begin(), segments.outliers.end());
  std::sort(result.outliers.begin(), result.outliers.end());
  if (!segments.knees.empty()) {
    DescribeKnees(clean, std::move(segments.knees), ram, result);
    return result;
  }
  result.verdict = NoKneeVerdictFrom(clean, tail, ram);
  return result;
}

}  // namespace nasperf
