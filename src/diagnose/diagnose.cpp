// Diagnose: the waterfall, every rule in turn, what could not be measured, and the summary.
#include "diagnose/diagnose.h"

#include <fmt/format.h>

#include "diagnose/link_math.h"
#include "diagnose/not_measured.h"
#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"
#include "diagnose/waterfall.h"

namespace nasperf {
namespace {

using namespace diagnose;

// What caps, in one sentence, when no cause other than caches was named.
std::string CapSentence(const Diagnosis& d, const Waterfall& w) {
  if (!w.end_to_end_mb_per_s) return "no end-to-end figure was measured: the cap cannot be told";
  if (w.cap_layer.empty())
    return fmt::format(
        "the protocol reached {}; the layers beneath it were not all measured, so the cap cannot be "
        "told",
        Mb(*w.end_to_end_mb_per_s));
  std::string s;
  std::optional<double> pct = w.cap_mb_per_s ? w.PctOfLine(*w.cap_mb_per_s) : std::nullopt;
  if (w.cap_layer == kLayerNetwork && pct && *pct >= kLinkHealthyPct) {
    s = fmt::format("the link is the cap: {}, {} of {}", Mb(*w.cap_mb_per_s), Pct(*pct), w.LineLabel());
    if (w.payload_max_mb_per_s)
      s += fmt::format(" ({} of the TCP payload maximum for MTU {})",
                       Pct(*w.cap_mb_per_s / *w.payload_max_mb_per_s * 100), *w.path_mtu);
    s += fmt::format("; the protocol reached {} and the layers beneath keep up", Mb(*w.end_to_end_mb_per_s));
    return s;
  }
  s = fmt::format("the {} caps it at {}", w.cap_layer, Mb(*w.cap_mb_per_s));
  if (pct) s += fmt::format(", {} of {}", Pct(*pct), w.LineLabel());
  s += fmt::format("; the protocol reached {}", Mb(*w.end_to_end_mb_per_s));
  return s;
}

}  // namespace

Diagnosis Diagnose(const Evidence& evidence) {
  Diagnosis d;
  d.evidence = evidence;
  const Waterfall w = BuildWaterfall(evidence);
  d.line_rate_mbps = w.line_rate_mbps;
  d.line_rate_mb_per_s = w.line_rate_mb_per_s;
  if (w.line_rate_mbps) d.line_rate_source = w.line_rate_stated ? "stated" : "nic";
  d.payload_max_mb_per_s = w.payload_max_mb_per_s;
  d.end_to_end_mb_per_s = w.end_to_end_mb_per_s;
  d.waterfall = w.rows;
  d.cap_layer = w.cap_layer;
  for (RuleFn rule : AllRules()) {
    if (std::optional<Cause> c = rule(evidence, w)) d.causes.push_back(std::move(*c));
  }
  d.not_measured = NotMeasured(evidence);
  for (const Cause& c : d.causes) {
    if (c.rule == "cached") continue;
    d.summary = c.summary;
    break;
  }
  if (d.summary.empty()) d.summary = CapSentence(d, w);
  return d;
}

}  // namespace nasperf
