// Stored ids and items.
#include "cli/stored_items.h"

#include <algorithm>
#include <map>
#include <set>

namespace nasperf {
namespace {

using Invocations = std::map<int64_t, InvocationRecord>;

Result<Invocations> AllInvocations(ResultsStore& store) {
  Result<std::vector<InvocationRecord>> all = store.ListInvocations("");
  if (!all.ok()) return all.status();
  Invocations out;
  for (InvocationRecord& r : all.value()) out[r.id] = std::move(r);
  return out;
}

// Quick suites and imports are one item each; a `run` invocation's run stands alone.
std::string GroupKind(const Invocations& invocations, const RunResult& run) {
  auto it = invocations.find(run.invocation_id);
  if (it == invocations.end()) return "run";
  if (it->second.command == "sweep" || it->second.command == "quick") return it->second.command;
  if (it->second.command == "import") return "import";
  return "run";
}

Result<ReportItem> InvocationItem(ResultsStore& store, const std::string& kind, int64_t invocation_id) {
  ReportItem item;
  item.kind = kind;
  if (kind == "sweep") {
    Result<StoredSweep> sweep = LoadSweep(store, invocation_id, true);
    if (!sweep.ok()) return sweep.status();
    item.key = "s" + std::to_string(invocation_id);
    item.sweep = std::move(sweep.value().summary);
    item.runs = std::move(sweep.value().points);
  } else {
    item.key = (kind == "quick" ? "q" : "i") + std::to_string(invocation_id);
    RunFilter filter;
    filter.invocation_id = invocation_id;
    filter.oldest_first = true;
    Result<std::vector<RunResult>> runs = store.List(filter, true);
    if (!runs.ok()) return runs.status();
    item.runs = std::move(runs).value();
  }
  item.label = ItemLabel(item);
  return item;
}

ReportItem RunItem(RunResult run) {
  ReportItem item;
  item.kind = "run";
  item.key = "r" + std::to_string(run.id);
  item.runs.push_back(std::move(run));
  item.label = ItemLabel(item);
  return item;
}

}  // namespace

Result<int64_t> ParseRunId(const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoll(text) == 0)
    return Status::BadInput("ID: '" + text + "' is not a run id (a positive whole number, see nasperf results list)");
  return std::stoll(text);
}

Result<StoredId> ParseStoredId(const std::string& text) {
  bool sweep = !text.empty() && text[0] == 's';
  Result<int64_t> id = ParseRunId(sweep ? text.substr(1) : text);
  if (!id.ok())
    return Status::BadInput("ID: '" + text + "' is neither a run id (12) nor a sweep id (s7); see nasperf results list");
  return StoredId{sweep, id.value()};
}

Result<StoredSweep> LoadSweep(ResultsStore& store, int64_t id, bool details) {
  Result<std::vector<InvocationRecord>> found = store.ListInvocations("sweep", id);
  if (!found.ok()) return found.status();
  if (found.value().empty()) return Status::BadInput("no sweep s" + std::to_string(id) + " in " + store.path());
  RunFilter filter;
  filter.invocation_id = id;
  filter.oldest_first = true;
  Result<std::vector<RunResult>> points = store.List(filter, details);
  if (!points.ok()) return points.status();
  StoredSweep sweep;
  sweep.points = std::move(points).value();
  const nlohmann::ordered_json& stored = found.value().front().summary;
  if (!stored.empty()) {
    Result<SweepSummary> summary = SweepFromJson(stored);
    if (!summary.ok()) return summary.status();
    sweep.summary = summary.value();
  } else {
    sweep.summary = SummaryFromPoints(sweep.points);
    sweep.summary.id = id;
    sweep.summary.partial = true;
    sweep.summary.notes.push_back("the sweep ended before it stored its summary; this one is rebuilt from its points");
  }
  return sweep;
}

Result<std::vector<ReportItem>> ItemsById(ResultsStore& store, const std::vector<StoredId>& ids) {
  Result<Invocations> invocations = AllInvocations(store);
  if (!invocations.ok()) return invocations.status();
  std::vector<ReportItem> items;
  std::set<std::string> seen;
  for (const StoredId& id : ids) {
    Result<ReportItem> item = [&]() -> Result<ReportItem> {
      if (id.sweep) return InvocationItem(store, "sweep", id.id);
      Result<RunResult> run = store.Load(id.id);
      if (!run.ok()) return run.status();
      std::string kind = GroupKind(invocations.value(), run.value());
      if (kind == "run") return RunItem(std::move(run).value());
      return InvocationItem(store, kind, run.value().invocation_id);
    }();
    if (!item.ok()) return item.status();
    if (seen.insert(item.value().key).second) items.push_back(std::move(item).value());
  }
  return items;
}

Result<std::vector<ReportItem>> ItemsMatching(ResultsStore& store, const RunFilter& filter, size_t last) {
  Result<Invocations> invocations = AllInvocations(store);
  if (!invocations.ok()) return invocations.status();
  RunFilter newest_first = filter;
  newest_first.oldest_first = false;
  newest_first.limit = 0;
  Result<std::vector<RunResult>> runs = store.List(newest_first, false);
  if (!runs.ok()) return runs.status();
  // Group newest first, so that `last` counts items, not runs.
  std::vector<StoredId> picks;
  std::set<std::string> seen;
  for (const RunResult& run : runs.value()) {
    std::string kind = GroupKind(invocations.value(), run);
    std::string key = kind;
    key += std::to_string(kind == "run" ? run.id : run.invocation_id);
    if (!seen.insert(key).second) continue;
    if (last > 0 && picks.size() == last) break;
    picks.push_back(kind == "sweep" ? StoredId{true, run.invocation_id} : StoredId{false, run.id});
  }
  std::reverse(picks.begin(), picks.end());
  return ItemsById(store, picks);
}

}  // namespace nasperf
