// A sweep as one item: what ran, how the cache was handled, and the cache analysis of
// every curve. Printed after a sweep, kept with its invocation in the results database
// (as JSON) and read back by `results show`. The analysis that fills the curves is
// suite/sweep_summary.h and suite/cache_analysis.h.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

// The RAM that can hold the file's data: the client's page cache and, when known
// (an agent reported it, or the user gave --nas-ram), the NAS's.
struct CacheRam {
  uint64_t client_bytes = 0;
  std::optional<uint64_t> nas_bytes;
  // A server caches the data too (a network file system) but its RAM is not known, so
  // a point marked uncached may still come from the server's cache.
  bool server_cache_unknown = false;
  // False for smb:// and nfs:// targets: libsmbclient and libnfs keep no client cache, so
  // only the NAS's RAM can cache the file.
  bool client_caches = true;
  uint64_t client_cache_bytes() const { return client_caches ? client_bytes : 0; }
  uint64_t total() const { return client_cache_bytes() + nas_bytes.value_or(0); }
  // "client RAM 23.4 GiB, NAS RAM 512 MiB", or "no client cache, NAS RAM ..."; `separator`
  // joins the two.
  std::string Text(const char* separator) const;
};

// One fall from a plateau to a lower one, each of at least two points.
struct Knee {
  uint64_t file_bytes = 0;     // the first file size of the lower plateau
  double before_mb_per_s = 0;  // medians of the plateaus on either side of it
  double after_mb_per_s = 0;
  // The RAM it matches (within a factor of 2 of the knee's size): "client RAM", "NAS RAM",
  // "client + NAS RAM", or "" when none does.
  std::string ram;
};

struct CurveAnalysis {
  // The last knee: the file size from which the curve stays below the midpoint of the
  // plateaus either side of it (every larger file is below it), with at least two points
  // on each plateau; nullopt: no knee. The fall into the uncached plateau.
  std::optional<uint64_t> knee_bytes;
  // Every knee, smallest file first: a curve that falls out of the client's RAM and then
  // out of the NAS's has two. knee_bytes is the last one's file_bytes.
  std::vector<Knee> knees;
  // File sizes whose point lies off its plateau and is left out of the knee and the
  // plateau figures: a lone dip (or spike) between two points more than 25 % away from
  // it, or a dip the curve recovers from before its knee.
  std::vector<uint64_t> outliers;
  // With a knee: the median of the uncached plateau (the run of largest files within
  // a factor 1.25 of each other) and of the points before it. Without a knee: the
  // medians of the points marked cached / uncached, nullopt when there are none.
  // Failed points (0 MB/s) are left out of every figure.
  std::optional<double> cached_mb_per_s;
  std::optional<double> uncached_mb_per_s;
  // One sentence for the reader: "knee at 512 MiB; client RAM 23.4 GiB; this curve is
  // cache-bound below it", or why there is no knee ("flat within 25 % from 64 KiB to
  // 4 GiB", "every file fits in RAM (23.4 GiB): raise --max past it", "direct I/O
  // bypasses the page cache: every point is uncached").
  std::string verdict;
};

struct SweepCurve {
  std::string test;  // "write", "read", ...
  uint64_t record_bytes = 0;
  CurveAnalysis analysis;
};

struct SweepSummary {
  int64_t id = 0;  // the invocation id; 0 when not stored
  std::string target;
  bool direct = false;
  bool fsync = false;
  uint32_t repeat = 1;
  std::vector<uint64_t> sizes;
  std::vector<uint64_t> records;
  std::vector<std::string> tests;
  std::string max_reason;
  CacheRam ram;
  // How cold reads were prepared: the method, how many drops, and the most of the file
  // any drop left in this machine's page cache.
  std::string cache_method;
  uint32_t cache_drops = 0;
  double max_resident_pct = 0;
  std::vector<std::string> notes;
  bool partial = false;
  std::vector<SweepCurve> curves;
};

// The MB/s of a sweep point: the direction its test measures.
double PointMbPerS(const RunResult& point);

nlohmann::ordered_json SweepToJson(const SweepSummary& summary);
// Io (never BadInput: the JSON is nasperf's own) when a stored summary cannot be read.
Result<SweepSummary> SweepFromJson(const nlohmann::ordered_json& j);

}  // namespace nasperf
