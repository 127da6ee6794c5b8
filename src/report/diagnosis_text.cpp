// DiagnosisTable: the waterfall as aligned columns, then the cap, causes and gaps.
#include "report/diagnosis_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace nasperf {
namespace {

std::string Figure(const std::optional<double>& v, const char* spec) {
  return v ? fmt::format(fmt::runtime(spec), *v) : "-";
}

std::string Heading(const Diagnosis& d) {
  std::string line = d.id > 0 ? fmt::format("diagnosis d{}", d.id) : std::string("diagnosis");
  if (!d.evidence.target.empty()) line += " of " + d.evidence.target;
  if (!d.started_at.empty()) line += ", " + d.started_at;
  if (d.partial) line += " (partial" + (d.error.empty() ? std::string() : ": " + d.error) + ")";
  return line;
}

std::string LineRateText(const Diagnosis& d) {
  if (!d.line_rate_mb_per_s) return "line rate: not measured";
  std::string line = "line rate: ";
  if (d.line_rate_mbps) line += fmt::format("{} Mbit/s = ", *d.line_rate_mbps);
  line += fmt::format("{:.1f} MB/s", *d.line_rate_mb_per_s);
  if (d.line_rate_source == "stated") line += " (stated with --line-rate, not read from the NICs)";
  if (d.payload_max_mb_per_s) line += fmt::format("; TCP payload max {:.1f} MB/s", *d.payload_max_mb_per_s);
  return line;
}

// The marker column: why a row is special, and its note.
// A client row's MB/s is what null: could count while moving no data (tens of millions of
// MB/s on a fast CPU): a figure for no transfer, so the table shows it only where it caps,
// and the row's note gives the client's CPU per I/O instead. The JSON keeps it.
std::string ClientAwareFigure(const WaterfallRow& r) {
  if (r.layer == "client" && r.mb_per_s && !r.caps) return "-";
  return Figure(r.mb_per_s, "{:.1f}");
}

std::string Mark(const WaterfallRow& r) {
  std::string mark = r.caps ? "cap" : r.cached ? "cached" : !r.mb_per_s ? "not measured" : "";
  if (r.note.empty()) return mark;
  // The rules' notes of unmeasured rows already start with what the mark says.
  if (r.note.rfind(mark, 0) == 0) return r.note;
  return mark + (mark.empty() ? "" : ": ") + r.note;
}

std::string EndToEnd(const Diagnosis& d) {
  std::string line = "end to end: ";
  if (!d.end_to_end_mb_per_s) {
    line += "not measured";
  } else {
    // The direction named: a cause about the other one (a write the NAS's CPU held back
    // beside a read that reached the link) then does not read as a contradiction.
    line += fmt::format("{:.1f} MB/s", *d.end_to_end_mb_per_s);
    if (!d.end_to_end_direction.empty()) line += " " + d.end_to_end_direction;
    if (d.line_rate_mb_per_s && *d.line_rate_mb_per_s > 0)
      line += fmt::format(" ({:.0f} % of line rate)", 100 * *d.end_to_end_mb_per_s / *d.line_rate_mb_per_s);
  }
  // The network as the lowest layer is not a cap the protocol reached: the line says so,
  // as the summary does (issue 33 item 4).
  if (d.unexplained_shortfall_pct)
    return line + fmt::format("; capped by: not proven: the protocol is {:.0f} % short of the {}, unexplained",
                              *d.unexplained_shortfall_pct, d.cap_layer);
  line += "; capped by: " + (d.cap_layer.empty() ? std::string("unknown") : d.cap_layer);
  return line;
}

}  // namespace

std::vector<std::string> DiagnosisTable(const Diagnosis& d) {
  std::vector<std::string> out = {Heading(d)};
  if (!d.summary.empty()) out.push_back(d.summary);
  out.push_back(LineRateText(d));
  size_t layer_w = 5, what_w = 4;  // "layer", "what"
  for (const WaterfallRow& r : d.waterfall) {
    layer_w = std::max(layer_w, r.layer.size());
    what_w = std::max(what_w, r.what.size());
  }
  auto row = [&](const std::string& layer, const std::string& what, const std::string& mb, const std::string& line,
                 const std::string& payload, const std::string& mark) {
    std::string s =
        fmt::format("{:<{}}  {:<{}}  {:>8}  {:>14}  {:>16}", layer, layer_w, what, what_w, mb, line, payload);
    if (!mark.empty()) s += "  " + mark;
    return s;
  };
  out.push_back(row("layer", "what", "MB/s", "% of line rate", "% of payload max", ""));
  for (const WaterfallRow& r : d.waterfall)
    out.push_back(row(r.layer, r.what, ClientAwareFigure(r), Figure(r.pct_of_line_rate, "{:.0f} %"),
                      Figure(r.pct_of_payload_max, "{:.0f} %"), Mark(r)));
  if (d.waterfall.empty()) out.push_back("(no layer measured)");
  out.push_back(EndToEnd(d));
  if (!d.causes.empty()) {
    out.push_back("causes:");
    for (const Cause& c : d.causes) {
      out.push_back("  " + c.summary);
      for (const std::string& e : c.evidence) out.push_back("    " + e);
    }
  }
  if (!d.not_measured.empty()) {
    out.push_back("not measured:");
    for (const std::string& n : d.not_measured) out.push_back("  " + n);
  }
  return out;
}

}  // namespace nasperf
