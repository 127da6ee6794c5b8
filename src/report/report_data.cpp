// BuildReportData and its helpers.
#include "report/report_data.h"

#include <cmath>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "base/units.h"
#include "nasperf/version.h"
#include "report/compare.h"
#include "report/diagnosis_text.h"
#include "model/run_json.h"

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

// A fact as JSON: numbers as numbers (so the page can format bytes and compare with a
// tolerance), everything else as the text it is.
ojson FactValue(const std::string& text) {
  if (text.empty() || text == "varies") return text;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value)) return text;
  if (text.find_first_of(".eE") == std::string::npos && text.size() < 19) return std::stoll(text);
  return value;
}

// Facts of an item: its tags and the first run's job and inventory, with job fields that
// differ between its runs (quick's block sizes and queue depths) shown as "varies".
ojson ItemFacts(const ReportItem& item) {
  ojson facts = ojson::object();
  if (item.runs.empty()) return facts;
  for (const auto& [k, v] : item.runs.front().tags) facts["tags." + k] = v;
  std::map<std::string, std::string> first;
  for (auto& [k, v] : RunFacts(item.runs.front())) first[k] = v;
  for (size_t i = 1; i < item.runs.size(); ++i)
    for (auto& [k, v] : RunFacts(item.runs[i])) {
      auto it = first.find(k);
      if (it != first.end() && it->second != v && k.rfind("job.", 0) == 0) it->second = "varies";
    }
  for (auto& [k, v] : RunFacts(item.runs.front())) facts[k] = FactValue(first[k]);
  return facts;
}

ojson SweepPoints(const ReportItem& item) {
  ojson points = ojson::array();
  for (const RunResult& p : item.runs)
    points.push_back({{"test", p.test},
                      {"record_bytes", p.job.bs},
                      {"file_bytes", p.job.size},
                      {"mb_per_s", p.partial ? 0.0 : PointMbPerS(p)},
                      {"cached", p.cached.value_or(false)},
                      {"partial", p.partial},
                      {"run_id", p.id}});
  return points;
}

ojson Optional(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

// The waterfall chart's data: a bar per layer, the line rate and payload maximum as
// reference lines (null: not measured).
ojson WaterfallData(const Diagnosis& d) {
  ojson rows = ojson::array();
  for (const WaterfallRow& r : d.waterfall)
    rows.push_back({{"layer", r.layer},
                    {"what", r.what},
                    {"mb_per_s", Optional(r.mb_per_s)},
                    {"pct_of_line_rate", Optional(r.pct_of_line_rate)},
                    {"pct_of_payload_max", Optional(r.pct_of_payload_max)},
                    {"cached", r.cached},
                    {"caps", r.caps},
                    {"note", r.note}});
  return {{"rows", rows},
          {"line_rate_mbps", d.line_rate_mbps ? ojson(*d.line_rate_mbps) : ojson(nullptr)},
          {"line_rate_mb_per_s", Optional(d.line_rate_mb_per_s)},
          {"line_rate_source", d.line_rate_source},
          {"payload_max_mb_per_s", Optional(d.payload_max_mb_per_s)},
          {"end_to_end_mb_per_s", Optional(d.end_to_end_mb_per_s)},
          {"end_to_end_direction", d.end_to_end_direction},
          {"cap_layer", d.cap_layer},
          {"unexplained_shortfall_pct", Optional(d.unexplained_shortfall_pct)},
          {"partial", d.partial}};
}

}  // namespace

std::vector<ReportLine> DefaultReportLines() { return {{"100 Mbps LAN", 12.5}, {"1 GbE theoretical", 125}}; }

Result<ReportLine> ParseReportLine(const std::string& text) {
  size_t eq = text.rfind('=');
  auto bad = [&] { return Status::BadInput("--line: '" + text + "' is not LABEL=MB/s (like \"PCI GbE actual=67\")"); };
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return bad();
  std::string number = text.substr(eq + 1);
  char* end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (end == number.c_str() || *end != '\0' || !std::isfinite(value) || value <= 0) return bad();
  return ReportLine{text.substr(0, eq), value};
}

std::string ItemLabel(const ReportItem& item) {
  if (item.diagnosis) return "diagnosis " + item.key + " " + item.diagnosis->evidence.target;
  if (item.runs.empty()) return item.key;
  const RunResult& first = item.runs.front();
  std::string default_name = item.kind == "sweep" ? "sweep" : "";
  bool named = !first.name.empty() && first.name != default_name &&
               (item.kind != "quick" || first.test.empty() || first.name.rfind(first.test, 0) != 0);
  if (named) return first.name;
  std::string tags;
  for (const auto& [k, v] : first.tags) tags += (tags.empty() ? "" : " ") + k + "=" + v;
  if (!tags.empty()) return tags;
  if (item.kind == "sweep") return item.key + " " + first.target;
  if (item.kind == "quick") return "quick #" + std::to_string(first.id) + " " + first.target;
  // An application run's job is how it moved bytes (1 MiB requests): its workload names it.
  if (first.app && !first.app->workload.empty()) return fmt::format("#{} {} {}", first.id, first.app->workload, first.target);
  return fmt::format("#{} {} {} Q{}T{}", first.id, ToString(first.job.rw), FormatSize(first.job.bs),
                     QueueDepthRun(first), first.job.threads);
}

ojson BuildReportData(const std::vector<ReportItem>& items, const std::vector<ReportLine>& lines,
                      const ReportMeta& meta) {
  ojson data;
  data["nasperf"] = {{"version", NASPERF_VERSION}};
  data["title"] = meta.title;
  data["generated_at"] = meta.generated_at;
  data["command_line"] = meta.command_line;
  ojson json_lines = ojson::array();
  for (const ReportLine& l : lines) json_lines.push_back({{"label", l.label}, {"mb_per_s", l.mb_per_s}});
  data["lines"] = json_lines;
  ojson json_items = ojson::array(), runs = ojson::array();
  for (const ReportItem& item : items) {
    ojson j = {{"key", item.key}, {"kind", item.kind}, {"label", item.label.empty() ? ItemLabel(item) : item.label}};
    ojson ids = ojson::array();
    for (const RunResult& r : item.runs) ids.push_back(r.id);
    j["run_ids"] = ids;
    if (item.sweep) {
      j["sweep"] = SweepToJson(*item.sweep);
      j["points"] = SweepPoints(item);
    } else if (item.diagnosis) {
      // The steps are the diagnosis's evidence, drawn as its waterfall, not as bars of
      // their own; the table is the terminal's, so page and terminal say the same.
      j["waterfall"] = WaterfallData(*item.diagnosis);
      j["table"] = DiagnosisTable(*item.diagnosis);
    } else {
      for (const RunResult& r : item.runs) {
        ojson run = RunToJson(r);
        run.erase("inventory");  // the item's facts carry it, once
        run["item"] = item.key;
        runs.push_back(std::move(run));
      }
    }
    j["facts"] = ItemFacts(item);
    json_items.push_back(std::move(j));
  }
  data["items"] = json_items;
  data["runs"] = runs;
  return data;
}

}  // namespace nasperf
