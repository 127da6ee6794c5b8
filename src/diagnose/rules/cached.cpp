// cached: figures above the link's line rate or the disks' ceiling came from a cache; they
// are marked in the waterfall and left out of the cap, and this cause says which.
#include <fmt/format.h>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"

namespace nasperf::diagnose {

std::optional<Cause> Cached(const Evidence& e, const Waterfall& w) {
  Cause c;
  c.rule = "cached";
  for (const WaterfallRow& row : w.rows) {
    if (!row.cached || !row.mb_per_s) continue;
    if (c.layer.empty()) c.layer = row.layer;
    c.evidence.push_back(fmt::format("{} {}: {}: {}", row.layer, row.what, Mb(*row.mb_per_s), row.note));
  }
  if (c.evidence.empty()) return std::nullopt;
  c.summary = fmt::format(
      "{} figure{} served from a cache, left out of the waterfall's cap (use a file larger "
      "than the NAS's RAM, or direct I/O)",
      c.evidence.size(), c.evidence.size() == 1 ? " was" : "s were");
  return c;
}

}  // namespace nasperf::diagnose
