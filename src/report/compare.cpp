// Compare: rows keyed by test, direction and metric, matched across columns.
#include "report/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <cstring>

#include "report/bars.h"
#include "report/compare_breakdown.h"
#include "model/run_json.h"
#include "stats/confidence.h"
#include "stats/welch.h"
#include "report/inventory_text.h"

namespace nasperf {
namespace {

struct Metric {
  const char* name;
  const char* unit;
  double (*get)(const DirectionResult&);
  double (*of_repeat)(const RepeatFigures&, bool read);  // the same figure of one repeat
};

const Metric kMetrics[] = {
    {"MB/s", "MB/s", [](const DirectionResult& d) { return d.mb_per_s; },
     [](const RepeatFigures& r, bool read) { return read ? r.read_mb_per_s : r.write_mb_per_s; }},
    {"IOPS", "IOPS", [](const DirectionResult& d) { return d.iops; },
     [](const RepeatFigures& r, bool read) { return read ? r.read_iops : r.write_iops; }},
    {"mean latency", "us", [](const DirectionResult& d) { return d.lat.mean_us; },
     [](const RepeatFigures& r, bool read) { return read ? r.read_lat_mean_us : r.write_lat_mean_us; }},
    {"p99 latency", "us", [](const DirectionResult& d) { return d.lat.p99_us; },
     [](const RepeatFigures& r, bool read) { return read ? r.read_lat_p99_us : r.write_lat_p99_us; }},
};

// `beside_suites`: another column holds a suite's tests ("SEQ1M Q1T1 read MB/s"); a plain
// run of the same workload then joins their rows under the suite's name for it.
std::string RowPrefix(const RunResult& run, size_t runs_in_column, bool beside_suites) {
  if (!run.test.empty()) return run.test + " ";
  if (beside_suites && run.engine != "net" && run.job.bs >= 1024)
    return SuiteTestLabel(IsRandom(run.job.rw), run.job.bs, QueueDepthRun(run), run.job.threads) + " ";
  if (runs_in_column > 1) return run.name.empty() ? "#" + std::to_string(run.id) + " " : run.name + " ";
  return "";
}

}  // namespace

Result<LineRate> ParseLineRate(const std::string& text) {
  // Decimal digits, an optional fraction and an optional g/m: no signs, exponents, "inf"
  // or "nan" to slip through strtod. Scanned by hand (one pass; std::regex recursed per
  // character and overflowed the stack on a long argument).
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i > start;
  };
  bool ok = digits();
  if (ok && i < text.size() && text[i] == '.') {
    ++i;
    ok = digits();
  }
  const size_t number_end = i;
  if (ok && i < text.size() && std::strchr("gGmM", text[i]) != nullptr && text[i] != '\0') ++i;
  if (!ok || i != text.size())
    return Status::BadInput("--line: '" + text +
                            "' is not a line rate: give Gbit/s as 1g, 2.5g or 10g, Mbit/s as 100m, or MB/s as a "
                            "plain number (67)");
  const double number = std::strtod(text.substr(0, number_end).c_str(), nullptr);
  if (!std::isfinite(number) || number <= 0 || number > 1e9)
    return Status::BadInput("--line: '" + text + "' must be more than 0 (and a line a NIC could have)");
  LineRate line;
  line.text = text;
  const char unit = number_end == text.size() ? '\0' : static_cast<char>(std::tolower(text[number_end]));
  if (unit == 'g') {
    line.mb_per_s = number * 1000 / 8;  // 10^9 bit/s -> 10^6 B/s
    line.label = fmt::format("{:g} GbE line {:g} MB/s", number, line.mb_per_s);
  } else if (unit == 'm') {
    line.mb_per_s = number / 8;
    line.label = fmt::format("{:g} Mbit/s line {:g} MB/s", number, line.mb_per_s);
  } else {
    line.mb_per_s = number;
    line.label = fmt::format("line {:g} MB/s", number);
  }
  return line;
}

std::vector<std::pair<std::string, std::string>> RunFacts(const RunResult& run) {
  std::vector<std::pair<std::string, std::string>> facts;
  const nlohmann::ordered_json job = JobToJson(run.job, run.engine);  // outlives the loop's view of it
  for (const auto& [key, value] : job.items())
    facts.emplace_back("job." + key, value.is_string() ? value.get<std::string>() : value.dump());
  // What ran, beside what was asked: a synchronous engine's "qd 32" ran at qd 1, and
  // lined up against a real qd 32 that is a difference ("32 requested, 1 run ...").
  for (auto& [key, value] : facts)
    if (key == "job.qd") value = QueueDepthText(run);
  facts.emplace_back("target", run.target);
  facts.emplace_back("source", run.source_tool);
  facts.emplace_back("protocol", run.protocol ? run.protocol->label() : "none");
  if (run.protocol) {
    facts.emplace_back("protocol.server", run.protocol->server);
    facts.emplace_back("protocol.share", run.protocol->share);
    for (const auto& [k, v] : run.protocol->options) facts.emplace_back("protocol." + k, v);
  }
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

// One metric of one direction in every repeat; empty when the run was not repeated or
// its repeats lack the metric (schema 1 and 2 stored each repeat's total MB/s only: their
// IOPS and latencies read as zeros, which are not figures).
std::vector<double> RepeatValues(const RunResult& run, const Metric& m, bool read) {
  std::vector<double> values;
  bool any = false;
  for (const RepeatFigures& r : run.repeats) {
    values.push_back(m.of_repeat(r, read));
    any = any || values.back() != 0;
  }
  if (values.size() < 2 || !any) values.clear();
  return values;
}

// A cell's figure: the mean of the repeats (the statistic the 95 % interval is about)
// when the run was repeated, else the run's own figure.
void FillCell(CompareCell& cell, const RunResult& run, const Metric& m, bool read, const DirectionResult& dir) {
  cell.present = true;
  cell.repeats = RepeatValues(run, m, read);
  if (cell.repeats.empty()) {
    cell.value = m.get(dir);
    return;
  }
  double sum = 0;
  for (double v : cell.repeats) sum += v;
  cell.value = sum / static_cast<double>(cell.repeats.size());
  cell.ci95 = ConfidenceInterval95(cell.repeats);
}

// Welch's t on the repeats of a cell against those of the first column's cell.
void JudgeAgainstFirst(CompareCell& cell, const CompareCell& first) {
  std::optional<WelchTest> test = WelchTTest(cell.repeats, first.repeats);
  if (!test) return;
  cell.welch = test;
  cell.significance = test->significant() ? "significant" : "not significant";
}

}  // namespace

Status CheckOneCacheState(const std::vector<CompareColumn>& columns) {
  const CompareColumn* first = nullptr;
  std::string first_state;
  for (const CompareColumn& c : columns) {
    for (const RunResult& r : c.runs) {
      if (!r.app) continue;
      const std::string state = r.app->cache_state.empty() ? "unknown" : r.app->cache_state;
      if (!first) {
        first = &c;
        first_state = state;
      } else if (state != first_state) {
        return Status::BadInput("compare: " + first->heading + " ran " + first_state + " and " + c.heading + " ran " +
                                state + ": application workloads are compared at one cache state (a dataset larger "
                                "than both ends' RAM, or caches dropped on both, makes both cold)");
      }
    }
  }
  return Status::Ok();
}

Comparison Compare(const std::vector<CompareColumn>& columns, const std::optional<LineRate>& line) {
  Comparison out;
  out.line = line;
  std::map<std::string, size_t> row_index;
  bool beside_suites = false;
  for (const CompareColumn& column : columns)
    for (const RunResult& run : column.runs) beside_suites = beside_suites || !run.test.empty();
  for (size_t c = 0; c < columns.size(); ++c) {
    out.headings.push_back(columns[c].heading);
    const bool has_facts = !columns[c].runs.empty() && columns[c].runs.front().protocol;
    out.protocols.push_back(has_facts ? columns[c].runs.front().protocol->label() : "");
    for (const RunResult& run : columns[c].runs) {
      for (const auto& [dir_name, dir] : {std::pair{"read", &run.read}, std::pair{"write", &run.write}}) {
        if (!DidIo(*dir)) continue;
        for (const Metric& m : kMetrics) {
          // A network test counts bytes, not I/Os: its IOPS and latencies would read as zeros.
          if (run.engine == "net" && std::string(m.unit) != "MB/s") continue;
          std::string label = RowPrefix(run, columns[c].runs.size(), beside_suites) + dir_name + " " + m.name;
          auto [it, added] = row_index.emplace(label, out.rows.size());
          if (added) out.rows.push_back({label, m.unit, std::vector<CompareCell>(columns.size())});
          CompareCell& cell = out.rows[it->second].cells[c];
          FillCell(cell, run, m, std::string(dir_name) == "read", **dir);
          if (line && std::string(m.unit) == "MB/s") cell.pct_of_line = cell.value / line->mb_per_s * 100;
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
      JudgeAgainstFirst(cell, first);
    }
  }

  // Differences in what was run and what it ran on, against the first column's first run.
  if (columns.size() > 1 && !columns[0].runs.empty()) {
    std::map<std::string, std::string> base;
    for (auto& [k, v] : RunFacts(columns[0].runs.front())) base[k] = v;
    std::map<std::string, std::vector<std::string>> seen;
    for (size_t c = 1; c < columns.size(); ++c) {
      if (columns[c].runs.empty()) continue;
      const std::vector<std::pair<std::string, std::string>> facts = RunFacts(columns[c].runs.front());
      // Another protocol altogether ("protocol: SMB 3.1.1 vs NFSv3") says it all: its
      // options (transport, capacity) would only be listed as "unknown vs ...".
      bool same_protocol = true;
      for (const auto& [k, v] : facts)
        if (k == "protocol") same_protocol = base["protocol"] == v;
      for (const auto& [k, v] : facts) {
        if (!same_protocol && k.rfind("protocol.", 0) == 0) continue;
        auto it = base.find(k);
        std::string first = it == base.end() ? "unknown" : it->second;
        if (Differs(first, v)) out.differences.push_back(fmt::format("{}: {} vs {} ({})", k, first, v, columns[c].heading));
      }
    }
  }
  if (std::string note = FlagPacedLatency(columns, out.rows); !note.empty()) out.notes.push_back(note);
  out.sections = CompareBreakdowns(columns);
  return out;
}

// Bar cells per figure: enough to see a 3 % step, short enough for four columns.
constexpr int kBarWidth = 10;

namespace {

// "p=0.003", "p=0.41", "p<0.001": enough digits to see where 0.05 falls.
std::string PValueText(double p) {
  if (p < 0.001) return "p<0.001";
  std::string text = fmt::format("{:.3f}", p);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return "p=" + text;
}

// "significant (p=0.003)", "not significant (p=0.41, n=2)": a verdict that is not
// significant says how few repeats it rested on, since few repeats rarely show anything.
std::string VerdictText(const CompareCell& cell, const CompareCell& first) {
  if (!cell.welch) return "";
  if (cell.welch->significant()) return "significant (" + PValueText(cell.welch->p) + ")";
  const size_t n = cell.repeats.size(), n_first = first.repeats.size();
  return "not significant (" + PValueText(cell.welch->p) + ", n=" +
         (n == n_first ? std::to_string(n) : fmt::format("{} vs {}", n_first, n)) + ")";
}

std::string CellText(const CompareRow& row, size_t c) {
  const CompareCell& cell = row.cells[c];
  if (!cell.present) return cell.caveat.empty() ? "-" : cell.caveat;
  std::string text = fmt::format("{:.2f}", cell.value);
  if (cell.ci95) text += fmt::format(" ±{:.2f}", (cell.ci95->high - cell.ci95->low) / 2);
  if (!cell.caveat.empty()) return text + " [" + cell.caveat + "]";  // not to be held against the first
  if (c > 0 && row.cells[0].present && row.cells[0].caveat.empty()) text += fmt::format(" ({:+.1f} %)", cell.pct_vs_first);
  if (c > 0 && cell.welch) text += " " + VerdictText(cell, row.cells[0]);
  if (cell.pct_of_line) text += fmt::format("  {:.0f} % of line", *cell.pct_of_line);
  return text;
}

}  // namespace

std::string ComparisonTable(const Comparison& cmp) {
  size_t label_width = 24;
  for (const CompareRow& row : cmp.rows) label_width = std::max(label_width, row.label.size() + 6);
  // Each column as wide as its heading or its widest figure.
  std::vector<size_t> widths(cmp.headings.size());
  for (const CompareSection& s : cmp.sections)
    for (const CompareRow& row : s.rows) label_width = std::max(label_width, row.label.size() + 6);
  for (size_t c = 0; c < cmp.headings.size(); ++c) {
    widths[c] = std::max<size_t>(c == 0 ? 14 : 24, cmp.headings[c].size());
    for (const CompareRow& row : cmp.rows) widths[c] = std::max(widths[c], CellText(row, c).size());
    for (const CompareSection& s : cmp.sections)
      for (const CompareRow& row : s.rows) widths[c] = std::max(widths[c], CellText(row, c).size());
  }
  std::string out;
  if (cmp.line)
    out += fmt::format("line: {} (--line {}); each MB/s figure also as % of it\n", cmp.line->label, cmp.line->text);
  out += fmt::format("{:<{}}", "", label_width);
  for (size_t c = 0; c < cmp.headings.size(); ++c)
    out += fmt::format(" {:>{}} {:<{}}", cmp.headings[c], widths[c], "", kBarWidth);
  out += "\n";
  auto print_rows = [&](const std::vector<CompareRow>& rows) {
    for (const CompareRow& row : rows) {
      // Each row's bars share one scale: the largest figure in the row fills the bar.
      double row_max = 0;
      for (const CompareCell& cell : row.cells)
        if (cell.present) row_max = std::max(row_max, cell.value);
      const std::string unit = row.unit == "us" || row.unit == "s" || row.unit == "%" ? " (" + row.unit + ")" : "";
      out += fmt::format("{:<{}}", row.label + unit, label_width);
      for (size_t c = 0; c < row.cells.size(); ++c) {
        const CompareCell& cell = row.cells[c];
        out += fmt::format(" {:>{}} ", CellText(row, c), widths[c]);
        out += UnicodeBar(cell.present && row_max > 0 ? cell.value / row_max : 0, kBarWidth);
      }
      out += "\n";
    }
  };
  print_rows(cmp.rows);
  for (const std::string& note : cmp.notes) out += note + "\n";
  for (const CompareSection& s : cmp.sections) {
    out += s.name + ":\n";
    print_rows(s.rows);
    for (const std::string& note : s.notes) out += note + "\n";
  }
  out += "bars: each figure against the largest in its row; MB/s = 10^6 B/s; % against the first column\n";
  out += "figures: mean of N repeats ± half-width of its 95 % CI (Student t) where a run was repeated, else the "
         "run's figure; significant / not significant: Welch's t-test on the repeats against the first column "
         "(two-sided, p < 0.05; n = repeats); no verdict: fewer than 2 repeats on a side\n";
  if (!cmp.differences.empty()) {
    out += "differences:\n";
    for (const std::string& d : cmp.differences) out += "  " + d + "\n";
  }
  return out;
}

namespace {

nlohmann::ordered_json RowsToJson(const std::vector<CompareRow>& source) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const CompareRow& row : source) {
    nlohmann::ordered_json cells = nlohmann::ordered_json::array();
    for (const CompareCell& cell : row.cells) {
      if (!cell.present) {
        cells.push_back(cell.caveat.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json{{"caveat", cell.caveat}});
        continue;
      }
      nlohmann::ordered_json j = {{"value", cell.value}, {"pct_vs_first", cell.pct_vs_first}};
      if (!cell.caveat.empty()) j = {{"value", cell.value}, {"pct_vs_first", nullptr}, {"caveat", cell.caveat}};
      j["statistic"] = cell.repeats.empty() ? "run" : "mean of repeats";
      j["n"] = cell.repeats.empty() ? 1 : cell.repeats.size();
      if (cell.ci95) {
        j["ci95"] = {cell.ci95->low, cell.ci95->high};
        if (row.unit == "MB/s") j["ci95_mb_per_s"] = {cell.ci95->low, cell.ci95->high};  // the older name
      }
      if (!cell.significance.empty()) j["significance"] = cell.significance;
      if (cell.welch) {
        j["p_value"] = cell.welch->p;
        // Infinite t (both sets constant) has no JSON number: left out with its dof.
        if (std::isfinite(cell.welch->t)) j["welch_t"] = cell.welch->t;
        if (std::isfinite(cell.welch->dof)) j["welch_dof"] = cell.welch->dof;
      }
      if (cell.pct_of_line) j["pct_of_line"] = *cell.pct_of_line;
      cells.push_back(j);
    }
    rows.push_back({{"label", row.label}, {"unit", row.unit}, {"cells", cells}});
  }
  return rows;
}

}  // namespace

nlohmann::ordered_json ComparisonToJson(const Comparison& cmp) {
  nlohmann::ordered_json rows = RowsToJson(cmp.rows);
  nlohmann::ordered_json sections = nlohmann::ordered_json::array();
  for (const CompareSection& s : cmp.sections)
    sections.push_back({{"name", s.name}, {"rows", RowsToJson(s.rows)}, {"notes", s.notes}});
  nlohmann::ordered_json protocols = nlohmann::ordered_json::array();
  for (const std::string& p : cmp.protocols)
    protocols.push_back(p.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(p));
  nlohmann::ordered_json line = nullptr;
  if (cmp.line) line = {{"rate", cmp.line->text}, {"mb_per_s", cmp.line->mb_per_s}, {"label", cmp.line->label}};
  return {{"columns", cmp.headings}, {"protocols", protocols}, {"line", line},
          {"rows", rows},           {"differences", cmp.differences}, {"notes", cmp.notes},
          {"sections", sections}};
}

}  // namespace nasperf
