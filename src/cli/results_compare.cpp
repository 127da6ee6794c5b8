// `nasperf results compare`: runs side by side; a quick run brings its whole set.
#include <algorithm>
#include <cstdio>
#include <set>

#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "model/run_json.h"
#include "report/compare.h"

namespace nasperf {
namespace {

// Ids of the invocations of `run` and `quick`: their runs may carry a cached mark too
// (a read on tmpfs, a checked cold read), which does not make them sweep points.
Result<std::set<int64_t>> RunAndQuickInvocations(ResultsStore& store) {
  std::set<int64_t> ids;
  for (const char* command : {"run", "quick"}) {
    Result<std::vector<InvocationRecord>> found = store.ListInvocations(command);
    if (!found.ok()) return found.status();
    for (const InvocationRecord& i : found.value()) ids.insert(i.id);
  }
  return ids;
}

// A sweep's or an import's point: it has a cached mark, and no run or quick made it.
bool IsSweepPoint(const RunResult& run, const std::set<int64_t>& run_and_quick) {
  return run.cached && !run_and_quick.count(run.invocation_id);
}

// A run that belongs to a suite (quick) brings its whole invocation into the comparison.
Result<CompareColumn> ColumnFor(ResultsStore& store, int64_t id) {
  Result<RunResult> run = store.Load(id);
  if (!run.ok()) return run.status();
  Result<std::set<int64_t>> run_and_quick = RunAndQuickInvocations(store);
  if (!run_and_quick.ok()) return run_and_quick.status();
  CompareColumn column;
  // A sweep point is compared alone: its sweep has a point per size for every test,
  // which one column of rows cannot hold.
  if (!run.value().test.empty() && run.value().invocation_id && !IsSweepPoint(run.value(), run_and_quick.value())) {
    RunFilter filter;
    filter.invocation_id = run.value().invocation_id;
    filter.oldest_first = true;
    Result<std::vector<RunResult>> group = store.List(filter, false);
    if (!group.ok()) return group.status();
    column.runs = std::move(group).value();
  } else {
    column.runs.push_back(std::move(run).value());
  }
  const RunResult& first = column.runs.front();
  column.heading = "#" + std::to_string(first.id);
  if (column.runs.size() > 1) column.heading += "-" + std::to_string(column.runs.back().id);
  // How the bytes travelled, first: "#12 SMB 3.1.1", "#13 NFSv3", "#15 net".
  if (first.protocol)
    column.heading += " " + first.protocol->label();
  else if (first.engine == "net")
    column.heading += " net";
  std::string label = first.test.empty() ? first.name : "";
  for (const auto& [k, v] : first.tags) label += (label.empty() ? "" : " ") + k + "=" + v;
  if (!label.empty()) column.heading += " " + label.substr(0, 22);
  return column;
}

// With no IDs: the newest run of each target (a quick run brings its set), oldest target
// first, up to six targets; sweep points and imports are left out (they have their own
// views). What a user who just measured three shares wants side by side.
Result<std::vector<int64_t>> NewestRunPerTarget(ResultsStore& store) {
  RunFilter filter;
  filter.limit = 500;
  Result<std::vector<RunResult>> recent = store.List(filter, false);
  if (!recent.ok()) return recent.status();
  Result<std::set<int64_t>> run_and_quick = RunAndQuickInvocations(store);
  if (!run_and_quick.ok()) return run_and_quick.status();
  std::vector<int64_t> ids;
  std::set<std::string> seen;
  for (const RunResult& r : recent.value()) {
    if (IsSweepPoint(r, run_and_quick.value()) || r.source_tool != "nasperf" || !seen.insert(r.target).second) continue;
    ids.push_back(r.id);
    if (ids.size() == 6) break;
  }
  std::reverse(ids.begin(), ids.end());
  if (ids.size() < 2)
    return Status::BadInput("compare: give at least two run IDs (the store has runs of " + std::to_string(ids.size()) +
                            " target(s) only; nasperf results list shows them)");
  return ids;
}

}  // namespace

int ResultsCompare(const ResultsCommandOptions& o) {
  if (o.ids.size() == 1) return ReportFailure(Status::BadInput("compare: give at least two run IDs, or none"));
  Result<std::vector<int64_t>> ids = ParseRunIds(o.ids);
  if (!ids.ok()) return ReportFailure(ids.status());
  std::optional<LineRate> line;
  if (!o.line.empty()) {
    Result<LineRate> parsed = ParseLineRate(o.line);
    if (!parsed.ok()) return ReportFailure(parsed.status());
    line = parsed.value();
  }
  Result<ResultsStore> store = OpenResultsStore(o, StoreAccess::kRead);
  if (!store.ok()) return ReportFailure(store.status());
  const bool chosen_for_user = o.ids.empty();
  if (chosen_for_user) {
    ids = NewestRunPerTarget(store.value());
    if (!ids.ok()) return ReportFailure(ids.status());
  }
  std::vector<CompareColumn> columns;
  for (int64_t id : ids.value()) {
    Result<CompareColumn> column = ColumnFor(store.value(), id);
    if (!column.ok()) return ReportFailure(column.status());
    columns.push_back(std::move(column).value());
  }
  if (Status s = CheckOneCacheState(columns); !s.ok()) return ReportFailure(s);
  Comparison cmp = Compare(columns, line);
  if (o.common.json) {
    std::vector<RunResult> all;
    for (const CompareColumn& c : columns) all.insert(all.end(), c.runs.begin(), c.runs.end());
    nlohmann::ordered_json doc = DocumentToJson(all);
    doc["compare"] = ComparisonToJson(cmp);
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    if (chosen_for_user) std::printf("the newest run of each target (name run IDs to choose others)\n");
    std::printf("%s", ComparisonTable(cmp).c_str());
  }
  return 0;
}

}  // namespace nasperf
