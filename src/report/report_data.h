// The data behind an HTML report: the selected items (a sweep, a quick suite, a single
// run or an import) with their runs, reference lines and table facts, as the JSON the
// report's script draws from (web/report/report.js documents the same shape).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/diagnosis.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "model/sweep_summary.h"

namespace nasperf {

// A horizontal reference line on throughput charts ("1 GbE theoretical" at 125 MB/s).
struct ReportLine {
  std::string label;
  double mb_per_s = 0;
};
// 100 Mbps LAN (12.5 MB/s) and 1 GbE (125 MB/s): the ceilings the seeds draw.
std::vector<ReportLine> DefaultReportLines();
// "PCI GbE actual=67" -> {label, 67 MB/s}; BadInput naming --line otherwise.
Result<ReportLine> ParseReportLine(const std::string& text);

// What the user selected, as one unit of a chart.
struct ReportItem {
  std::string key;   // "s7" sweep, "q12" quick (its invocation), "r30" run, "i4" import, "d3" diagnosis
  std::string kind;  // sweep, quick, run, import, diagnosis
  std::string label;
  std::vector<RunResult> runs;       // a sweep's points, or the suite's runs
  std::optional<SweepSummary> sweep;
  std::optional<Diagnosis> diagnosis;  // a diagnosis; `runs` are its steps
};

// A short label: the name the user gave, else the tags, else what and where.
std::string ItemLabel(const ReportItem& item);

struct ReportMeta {
  std::string title = "nasperf report";
  std::string generated_at;
  std::string command_line;
};

nlohmann::ordered_json BuildReportData(const std::vector<ReportItem>& items, const std::vector<ReportLine>& lines,
                                       const ReportMeta& meta);

}  // namespace nasperf
