// Diagnose: the waterfall, every rule in turn, what could not be measured, and the summary.
#include "diagnose/diagnose.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "diagnose/link_math.h"
#include "diagnose/not_measured.h"
#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"
#include "diagnose/waterfall.h"

namespace nasperf {
namespace {

using namespace diagnose;

// What was measured, and what was not, that could explain a protocol short of a healthy
// link when no rule named a cause: the NAS's CPU, SMB signing, the per-request latency.
std::string ShortfallExplanations(const Evidence& e) {
  std::vector<std::string> measured, not_measured;
  if (e.nas.cpu_all)
    measured.push_back(fmt::format("the NAS's CPUs {} busy at most (not saturated)", Pct(e.nas.cpu_all->busy_pct)));
  else
    not_measured.push_back("the NAS's CPU");
  if (e.target_kind == "smb") {
    std::optional<std::string> signing;
    for (const auto& [key, value] : e.negotiated)
      if (key == "signing") signing = value;
    if (!signing)
      not_measured.push_back("whether SMB signing was on");
    else if (*signing == "off")
      measured.push_back("SMB signing off");
    else
      not_measured.push_back(fmt::format("the cost of SMB signing ({})", *signing));
  }
  not_measured.push_back("the protocol's per-request latency");
  std::string s;
  if (!measured.empty()) s += fmt::format("; measured: {}", fmt::join(measured, ", "));
  s += fmt::format("; not measured: {}", fmt::join(not_measured, ", "));
  return s;
}

// The network is at the line rate but the protocol fell short of it by more than
// 1 - kLinkCapProtocolRatio, and no rule named why: say so, rather than call the link the cap.
// The protocol short of a network that is near its line rate, in % of the network's
// figure; nullopt when the network is a proven cap (or not the lowest layer).
std::optional<double> UnexplainedShortfallPct(const Waterfall& w) {
  if (!w.end_to_end_mb_per_s || !w.cap_mb_per_s || w.cap_layer != kLayerNetwork) return std::nullopt;
  std::optional<double> pct = w.PctOfLine(*w.cap_mb_per_s);
  if (!pct || *pct < kLinkHealthyPct || *w.end_to_end_mb_per_s >= kLinkCapProtocolRatio * *w.cap_mb_per_s)
    return std::nullopt;
  return (1 - *w.end_to_end_mb_per_s / *w.cap_mb_per_s) * 100;
}

std::string ShortOfTheLinkSentence(const Evidence& e, const Waterfall& w, double network_pct_of_line) {
  const double ratio = *w.end_to_end_mb_per_s / *w.cap_mb_per_s;
  return fmt::format(
      "an unexplained shortfall of {}: the protocol reached {}, {} of the {} the network carries ({} of {}){}",
      Pct((1 - ratio) * 100), Mb(*w.end_to_end_mb_per_s), Pct(ratio * 100), Mb(*w.cap_mb_per_s),
      Pct(network_pct_of_line), w.LineLabel(), ShortfallExplanations(e));
}

// No uncached end-to-end figure: either none was measured, or every one measured was set
// aside as served by a cache, which the sentence then names with the reason.
std::string NoEndToEndSentence(const Waterfall& w) {
  std::vector<std::string> set_aside;
  for (const WaterfallRow& r : w.rows)
    if (r.layer == kLayerProtocol && r.mb_per_s && r.cached)
      set_aside.push_back(fmt::format("{}: {} ({})", r.what, Mb(*r.mb_per_s), r.note));
  if (set_aside.empty()) return "no end-to-end figure was measured: the cap cannot be told";
  return fmt::format("every end-to-end figure measured was set aside as cached, so the cap cannot be told: {}",
                     fmt::join(set_aside, "; "));
}

// What caps, in one sentence, when no cause other than caches was named.
std::string CapSentence(const Diagnosis& d, const Waterfall& w) {
  if (!w.end_to_end_mb_per_s) return NoEndToEndSentence(w);
  if (w.cap_layer.empty())
    return fmt::format(
        "the protocol reached {}; the layers beneath it were not all measured, so the cap cannot be "
        "told",
        Mb(*w.end_to_end_mb_per_s));
  std::string s;
  std::optional<double> pct = w.cap_mb_per_s ? w.PctOfLine(*w.cap_mb_per_s) : std::nullopt;
  if (pct && UnexplainedShortfallPct(w)) return ShortOfTheLinkSentence(d.evidence, w, *pct);
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
  if (w.end_to_end_mb_per_s) d.end_to_end_direction = w.end_to_end_is_read ? "read" : "write";
  d.waterfall = w.rows;
  d.cap_layer = w.cap_layer;
  d.unexplained_shortfall_pct = UnexplainedShortfallPct(w);
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
