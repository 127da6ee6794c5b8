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

// The diagnosis a run is a step of: its diagnosis=dN tag naming a stored diagnosis, else 0.
using DiagnosisIds = std::set<int64_t>;
int64_t DiagnosisOf(const DiagnosisIds& diagnoses, const RunResult& run) {
  auto tag = run.tags.find("diagnosis");
  if (tag == run.tags.end() || tag->second.size() < 2 || tag->second[0] != 'd') return 0;
  Result<int64_t> id = ParseRunId(tag->second.substr(1));
  return id.ok() && diagnoses.count(id.value()) ? id.value() : 0;
}

Result<DiagnosisIds> AllDiagnosisIds(ResultsStore& store) {
  Result<std::vector<Diagnosis>> all = store.ListDiagnoses();
  if (!all.ok()) return all.status();
  DiagnosisIds out;
  for (const Diagnosis& d : all.value()) out.insert(d.id);
  return out;
}

// A diagnosis's steps are one item; quick suites and imports are one item each; a `run`
// invocation's run stands alone.
std::string GroupKind(const Invocations& invocations, const DiagnosisIds& diagnoses, const RunResult& run) {
  if (DiagnosisOf(diagnoses, run)) return "diagnosis";
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

Result<ReportItem> DiagnosisItem(ResultsStore& store, int64_t id) {
  Result<StoredDiagnosis> d = LoadDiagnosisItem(store, id, true);
  if (!d.ok()) return d.status();
  ReportItem item;
  item.kind = "diagnosis";
  item.key = "d" + std::to_string(id);
  item.runs = std::move(d.value().steps);
  item.diagnosis = std::move(d.value().diagnosis);
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
  bool diagnosis = !text.empty() && text[0] == 'd';
  Result<int64_t> id = ParseRunId(sweep || diagnosis ? text.substr(1) : text);
  if (!id.ok())
    return Status::BadInput("ID: '" + text +
                            "' is not a run id (12), a sweep id (s7) or a diagnosis id (d3); see nasperf results list");
  return StoredId{sweep, id.value(), diagnosis};
}

Result<StoredDiagnosis> LoadDiagnosisItem(ResultsStore& store, int64_t id, bool details) {
  Result<Diagnosis> d = store.LoadDiagnosis(id);
  if (!d.ok()) return d.status();
  RunFilter filter;
  filter.tags["diagnosis"] = "d" + std::to_string(id);
  filter.oldest_first = true;
  Result<std::vector<RunResult>> steps = store.List(filter, details);
  if (!steps.ok()) return steps.status();
  return StoredDiagnosis{std::move(d).value(), std::move(steps).value()};
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
  Result<DiagnosisIds> diagnoses = AllDiagnosisIds(store);
  if (!diagnoses.ok()) return diagnoses.status();
  std::vector<ReportItem> items;
  std::set<std::string> seen;
  for (const StoredId& id : ids) {
    Result<ReportItem> item = [&]() -> Result<ReportItem> {
      if (id.sweep) return InvocationItem(store, "sweep", id.id);
      if (id.diagnosis) return DiagnosisItem(store, id.id);
      Result<RunResult> run = store.Load(id.id);
      if (!run.ok()) return run.status();
      std::string kind = GroupKind(invocations.value(), diagnoses.value(), run.value());
      if (kind == "run") return RunItem(std::move(run).value());
      if (kind == "diagnosis") return DiagnosisItem(store, DiagnosisOf(diagnoses.value(), run.value()));
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
  Result<DiagnosisIds> diagnoses = AllDiagnosisIds(store);
  if (!diagnoses.ok()) return diagnoses.status();
  RunFilter newest_first = filter;
  newest_first.oldest_first = false;
  newest_first.limit = 0;
  Result<std::vector<RunResult>> runs = store.List(newest_first, false);
  if (!runs.ok()) return runs.status();
  // Group newest first, so that `last` counts items, not runs.
  std::vector<StoredId> picks;
  std::set<std::string> seen;
  for (const RunResult& run : runs.value()) {
    std::string kind = GroupKind(invocations.value(), diagnoses.value(), run);
    const int64_t diagnosis = DiagnosisOf(diagnoses.value(), run);
    std::string key = kind;
    key += std::to_string(kind == "run" ? run.id : kind == "diagnosis" ? diagnosis : run.invocation_id);
    if (!seen.insert(key).second) continue;
    if (last > 0 && picks.size() == last) break;
    picks.push_back(kind == "sweep"       ? StoredId{true, run.invocation_id}
                    : kind == "diagnosis" ? StoredId{false, diagnosis, true}
                                          : StoredId{false, run.id});
  }
  std::reverse(picks.begin(), picks.end());
  return ItemsById(store, picks);
}

}  // namespace nasperf
