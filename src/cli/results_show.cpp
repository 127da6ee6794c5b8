// `nasperf results show`: everything stored about runs, or one sweep, or one diagnosis.
#include <algorithm>
#include <cstdio>

#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "cli/stored_items.h"
#include "model/diagnosis_json.h"
#include "model/group_totals.h"
#include "model/run_json.h"
#include "report/diagnosis_text.h"
#include "report/inventory_text.h"
#include "report/sweep_report.h"
#include "report/table_report.h"
#include "suite/sweep_summary.h"

namespace nasperf {
namespace {

int ShowSweep(ResultsStore& store, const ResultsCommandOptions& o, int64_t id) {
  Result<StoredSweep> sweep = LoadSweep(store, id, o.common.json);
  if (!sweep.ok()) return ReportFailure(sweep.status());
  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(sweep.value().points);
    doc["sweep"] = SweepToJson(sweep.value().summary);
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    std::printf("%s\n", SweepTable(sweep.value().summary, sweep.value().points).c_str());
  }
  return 0;
}

// The waterfall, causes and gaps, then the steps it was measured in (one list line each).
int ShowDiagnosis(ResultsStore& store, const ResultsCommandOptions& o, int64_t id) {
  Result<StoredDiagnosis> d = LoadDiagnosisItem(store, id, o.common.json);
  if (!d.ok()) return ReportFailure(d.status());
  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(d.value().steps);
    doc["diagnosis"] = DiagnosisToJson(d.value().diagnosis);
    std::printf("%s\n", doc.dump(2).c_str());
    return 0;
  }
  for (const std::string& line : DiagnosisTable(d.value().diagnosis)) std::printf("%s\n", line.c_str());
  if (!d.value().diagnosis.command_line.empty()) std::printf("command: %s\n", d.value().diagnosis.command_line.c_str());
  std::printf("steps (stored runs tagged diagnosis=d%lld): %zu\n", static_cast<long long>(id), d.value().steps.size());
  for (const RunResult& r : d.value().steps) std::printf("%s", RunListLine(r).c_str());
  return 0;
}

}  // namespace

int ResultsShow(const ResultsCommandOptions& o) {
  std::vector<StoredId> ids;
  for (const std::string& text : o.ids) {
    Result<StoredId> id = ParseStoredId(text);
    if (!id.ok()) return ReportFailure(id.status());
    ids.push_back(id.value());
  }
  Result<ResultsStore> store = OpenResultsStore(o, StoreAccess::kRead);
  if (!store.ok()) return ReportFailure(store.status());
  bool any_sweep = std::any_of(ids.begin(), ids.end(), [](const StoredId& i) { return i.sweep; });
  if (any_sweep && ids.size() > 1)
    return ReportFailure(Status::BadInput("show: a sweep (s7) is shown on its own; give one sweep id"));
  if (any_sweep) return ShowSweep(store.value(), o, ids.front().id);
  bool any_diagnosis = std::any_of(ids.begin(), ids.end(), [](const StoredId& i) { return i.diagnosis; });
  if (any_diagnosis && ids.size() > 1)
    return ReportFailure(Status::BadInput("show: a diagnosis (d3) is shown on its own; give one diagnosis id"));
  if (any_diagnosis) return ShowDiagnosis(store.value(), o, ids.front().id);
  std::vector<RunResult> runs;
  for (const StoredId& id : ids) {
    Result<RunResult> run = store.value().Load(id.id);
    if (!run.ok()) return ReportFailure(run.status());
    runs.push_back(std::move(run).value());
  }
  if (o.common.json) {
    std::printf("%s\n", DocumentToJson(runs).dump(2).c_str());
    return 0;
  }
  for (const RunResult& r : runs) {
    std::printf("run %lld%s%s — started %s%s\n", static_cast<long long>(r.id), r.name.empty() ? "" : " ",
                r.name.c_str(), r.started_at.c_str(), r.partial ? " [PARTIAL]" : "");
    if (r.source_tool != "nasperf") std::printf("imported from %s: %s\n", r.source_tool.c_str(), r.source_file.c_str());
    if (!r.command_line.empty()) std::printf("command: %s\n", r.command_line.c_str());
    if (r.measured_on == "nas") std::printf("measured on: NAS (agent)\n");
    if (!r.tags.empty()) {
      std::printf("tags:");
      for (const auto& [k, v] : r.tags) std::printf(" %s=%s", k.c_str(), v.c_str());
      std::printf("\n");
    }
    std::printf("%s", RunTable(r).c_str());
    if (!r.samples.empty()) {
      std::printf("per-second MB/s (read/write):");
      for (const Sample& s : r.samples) std::printf(" %.0f/%.0f", s.read_mb_per_s, s.write_mb_per_s);
      std::printf("\n");
    }
    if (!r.inventory.empty()) std::printf("%s", InventoryText(r.inventory).c_str());
    std::printf("\n");
  }
  // A job file's group, when more than one of its runs is shown: the group's figures too.
  for (const std::string& group : GroupsOf(runs)) {
    std::vector<RunResult> members;
    for (const RunResult& r : runs)
      if (r.job_group == group && (members.empty() || r.invocation_id == members.front().invocation_id))
        members.push_back(r);
    if (members.size() > 1) std::printf("%s\n", GroupTable(SumGroup(members, group)).c_str());
  }
  return 0;
}

}  // namespace nasperf
