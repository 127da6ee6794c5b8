// Side-by-side comparison of runs (or of suites such as quick's eight tests): each
// figure, its difference against the first column, whether that difference is
// significant (Welch's t on the repeats), and what differs in the job and the inventory.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"
#include "stats/confidence.h"
#include "stats/welch.h"

namespace nasperf {

// A network line to read throughput against (`results compare --line 1g`).
struct LineRate {
  std::string text;     // as the user gave it: "1g"
  double mb_per_s = 0;  // 10^6 B/s: 1g -> 125, 100m -> 12.5, 2.5g -> 312.5
  std::string label;    // "1 GbE line 125 MB/s"
};
// "1g", "2.5g", "10g" (Gbit/s), "100m" (Mbit/s), or a plain number of MB/s ("67").
// Anything else, zero or less: BadInput naming --line.
Result<LineRate> ParseLineRate(const std::string& text);

// One column: a single run, or every run of one quick invocation.
struct CompareColumn {
  std::string heading;  // "#12 atom" or "#12-19 quick mtu=9000"
  std::vector<RunResult> runs;
};

struct CompareCell {
  bool present = false;
  // The mean of the repeats when the run was repeated (what `ci95` is about), else the
  // run's own figure. In the row's unit.
  double value = 0;
  double pct_vs_first = 0;       // (value - first) / first * 100
  std::vector<double> repeats;   // this figure in each repeat; empty for a single run
  std::optional<Interval> ci95;  // of the mean of `repeats` (Student t), when repeated
  // Welch's t on `repeats` against the first column's: set when both sides have at least
  // two repeats. `significance` says its verdict: "significant" (p < 0.05), "not
  // significant", or "" when there was nothing to test.
  std::optional<WelchTest> welch;
  std::string significance;
  std::optional<double> pct_of_line;  // MB/s rows with a line rate: value / line * 100
  // Why the figure is not to be held against the first column's ("paced"), or why a cell
  // has none ("no result", "single client"): then no % and no verdict.
  std::string caveat;
};

struct CompareRow {
  std::string label;  // "SEQ1M Q8T1 read MB/s"
  std::string unit;   // "MB/s", "IOPS", "us"
  std::vector<CompareCell> cells;
};

// Rows beyond the totals (the ranks of many-clients runs, the sizes of a mix, the pacing
// facts), and the plain lines that say why columns were not lined up.
struct CompareSection {
  std::string name;  // "per rank", "per size", "pacing"
  std::vector<CompareRow> rows;
  std::vector<std::string> notes;
};

struct Comparison {
  std::vector<std::string> headings;
  std::vector<std::string> protocols;  // per column: its first run's protocol label, "" for none
  std::optional<LineRate> line;
  std::vector<CompareRow> rows;
  std::vector<std::string> differences;  // "job.qd: 1 vs 32", "host.nics[0].mtu: 1500 vs 9000"
  std::vector<std::string> notes;        // about the totals: "latency not compared: ..."
  std::vector<CompareSection> sections;
};

// Flattened facts that should be equal for a fair comparison: the job ("job.qd"), the
// target, the source tool, the protocol ("protocol": "NFSv3" or "none", "protocol.server",
// "protocol.max read") and the inventory ("host.cpu.model").
std::vector<std::pair<std::string, std::string>> RunFacts(const RunResult& run);

// Application workloads are compared at one cache state only (issue 18): a cold copy
// beside a warm one measures the cache, not the change. BadInput naming both columns and
// their states when the columns' app runs were not all "cold", all "warm" or all
// "unknown"; Ok when they agree or no column holds an app run.
Status CheckOneCacheState(const std::vector<CompareColumn>& columns);

// Network runs (engine "net") have MB/s only: their IOPS and latency rows stay empty.
Comparison Compare(const std::vector<CompareColumn>& columns, const std::optional<LineRate>& line = std::nullopt);
std::string ComparisonTable(const Comparison& comparison);
nlohmann::ordered_json ComparisonToJson(const Comparison& comparison);

}  // namespace nasperf
