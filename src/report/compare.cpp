// Compare: rows keyed by test, direction and metric, matched across columns.
#include "report/compare.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <map>

#include "report/bars.h"
#include "report/json_report.h"
#include "stats/confidence.h"
#include "sysinfo/inventory.h"

namespace nasperf {
namespace {

struct Metric {
  const char* name;
  const char* unit;
  double (*get)(const DirectionResult&);
};

const Metric kMetrics[] = {
    {"MB/s", "MB/s", [](const DirectionResult& d) { return d.mb_per_s; }},
    {"IOPS", "IOPS", [](const DirectionResult& d) { return d.iops; }},
    {"mean latency", "us", [](const DirectionResult& d) { return d.lat.mean_us; }},
    {"p99 latency", "us", [](const DirectionResult& d) { return d.lat.p99_us; }},
};

std::string RowPrefix(const RunResult& run, size_t runs_in_column) {
  if (!run.test.empty()) return run.test + " ";
  if (runs_in_column > 1) return run.name.empty() ? "#" + std::to_string(run.id) + " " : run.name + " ";
  return "";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RunFacts(const RunResult& run) {
  std::vector<std::pair<std::string, std::string>> facts;
  const nlohmann::ordered_json job = JobToJson(run.job, run.engine);  // outlives the loop's view of it
  for (const auto& [key, value] : job.items())
    facts.emplace_back("job." + key, value.is_string() ? value.get<std::string>() : value.dump());
  facts.emplace_back("target", run.target);
  facts.emplace_back("source", run.source_tool);
  for (auto& fact : FlattenInventory(run.inventory)) facts.push_back(std::move(fact));
  return facts;
}

namespace {

// Free space, page cache and the like drift between any two runs; only a change of more
// than 10 % in a number is a difference worth a reader's attention.
bool Differs(const std::string& a, const std::string& b) {
  if (a == b) return false;
  char* end_a = nullptr;
  char* end_b = nullptr;
  double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
  bool numbers = !a.empty() && !b.empty() && *end_a == '\0' && *end_b == '\0';
  if (!numbers) return true;
  double scale = std::max(std::fabs(x), std::fabs(y));
  return scale > 0 && std::fabs(x - y) / scale > 0.10;
}

// The 95 % interval of one direction's MB/s over the run's repeats.
std::optional<Interval> DirectionInterval(const RunResult& run, const std::string& dir) {
  std::vector<double> figures;
  for (const RepeatFigures& r : run.repeats) figures.push_back(dir == "read" ? r.read_mb_per_s : r.write_mb_per_s);
  return ConfidenceInterval95(figures);
}

}  // namespace

Comparison Compare(const std::vector<CompareColumn>& columns) {
  Comparison out;
  std::map<std::string, size_t> row_index;
  for (size_t c = 0; c < columns.size(); ++c) {
    out.headings.push_back(columns[c].heading);
    for (const RunResult& run : columns[c].runs) {
      for (const auto& [dir_name, dir] : {std::pair{"read", &run.read}, std::pair{"write", &run.write}}) {
        if (!DidIo(*dir)) continue;
        for (const Metric& m : kMetrics) {
          std::string label = RowPrefix(run, columns[c].runs.size()) + dir_name + " " + m.name;
          auto [it, added] = row_index.emplace(label, out.rows.size());
          if (added) out.rows.push_back({label, m.unit, std::vector<CompareCell>(columns.size())});
          CompareCell& cell = out.rows[it->second].cells[c];
          cell.present = true;
          cell.value = m.get(**dir);
          if (std::string(m.name) == "MB/s") cell.ci95 = DirectionInterval(run, dir_name);
        }
      }
    }
  }
  for (CompareRow& row : out.rows) {
    const CompareCell& first = row.cells[0];
    for (size_t c = 1; c < row.cells.size(); ++c) {
      CompareCell& cell = row.cells[c];
      if (!cell.present || !first.present) continue;
      if (first.value != 0) cell.pct_vs_first = (cell.value - first.value) / first.value * 100;
      if (cell.ci95 && first.ci95) cell.significance = cell.ci95->Overlaps(*first.ci95) ? "within noise" : "significant";
    }
  }

  // Differences in what was run and what it ran on, against the first column's first run.
  if (columns.size() > 1 && !columns[0].runs.empty()) {
    std::map<std::string, std::string> base;
    for (auto& [k, v] : RunFacts(columns[0].runs.front())) base[k] = v;
    std::map<std::string, std::vector<std::string>> seen;
    for (size_t c = 1; c < columns.size(); ++c) {
      if (columns[c].runs.empty()) continue;
      for (auto& [k, v] : RunFacts(columns[c].runs.front())) {
        auto it = base.find(k);
        std::string first = it == base.end() ? "unknown" : it->second;
        if (Differs(first, v)) out.differences.push_back(fmt::format("{}: {} vs {} ({})", k, first, v, columns[c].heading));
      }
    }
  }
  return out;
}

// Bar cells per figure: enough to see a 3 % step, short enough for four columns.
constexpr int kBarWidth = 10;

std::string ComparisonTable(const Comparison& cmp) {
  size_t label_width = 24;
  for (const CompareRow& row : cmp.rows) label_width = std::max(label_width, row.label.size() + 6);
  std::string out = fmt::format("{:<{}}", "", label_width);
  for (size_t c = 0; c < cmp.headings.size(); ++c)
    out += fmt::format(" {:>{}} {:<{}}", cmp.headings[c], c == 0 ? 14 : 30, "", kBarWidth);
  out += "\n";
  for (const CompareRow& row : cmp.rows) {
    // Each row's bars share one scale: the largest figure in the row fills the bar.
    double row_max = 0;
    for (const CompareCell& cell : row.cells)
      if (cell.present) row_max = std::max(row_max, cell.value);
    out += fmt::format("{:<{}}", row.label + (row.unit == "us" ? " (us)" : ""), label_width);
    for (size_t c = 0; c < row.cells.size(); ++c) {
      const CompareCell& cell = row.cells[c];
      std::string text = "-";
      if (cell.present) {
        text = fmt::format("{:.2f}", cell.value);
        if (c > 0 && row.cells[0].present) text += fmt::format(" ({:+.1f} %)", cell.pct_vs_first);
        if (!cell.significance.empty()) text += cell.significance == "significant" ? " *" : " ~";
      }
      out += fmt::format(" {:>{}} ", text, c == 0 ? 14 : 30);
      out += UnicodeBar(cell.present && row_max > 0 ? cell.value / row_max : 0, kBarWidth);
    }
    out += "\n";
  }
  out += "bars: each figure against the largest in its row; ";
  out += "MB/s = 10^6 B/s; % against the first column; * significant, ~ within noise (95 % intervals of the "
         "repeats, t-based); no mark: no repeats to judge by\n";
  if (!cmp.differences.empty()) {
    out += "differences:\n";
    for (const std::string& d : cmp.differences) out += "  " + d + "\n";
  }
  return out;
}

nlohmann::ordered_json ComparisonToJson(const Comparison& cmp) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const CompareRow& row : cmp.rows) {
    nlohmann::ordered_json cells = nlohmann::ordered_json::array();
    for (const CompareCell& cell : row.cells) {
      if (!cell.present) {
        cells.push_back(nullptr);
        continue;
      }
      nlohmann::ordered_json j = {{"value", cell.value}, {"pct_vs_first", cell.pct_vs_first}};
      if (cell.ci95) j["ci95_mb_per_s"] = {cell.ci95->low, cell.ci95->high};
      if (!cell.significance.empty()) j["significance"] = cell.significance;
      cells.push_back(j);
    }
    rows.push_back({{"label", row.label}, {"unit", row.unit}, {"cells", cells}});
  }
  return {{"columns", cmp.headings}, {"rows", rows}, {"differences", cmp.differences}};
}

}  // namespace nasperf
