// `nasperf results list`: one line a stored run, one a sweep, one a diagnosis.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "base/units.h"
#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "model/run_json.h"

namespace nasperf {
namespace {

std::string DirectionFigure(const std::optional<DirectionResult>& d) {
  return DidIo(d) ? fmt::format("{:.2f}", d->mb_per_s) : "-";
}

std::string SweepListLine(const InvocationRecord& sweep, const RunResult& point) {
  std::string range = "-";
  if (sweep.summary.contains("sizes_bytes") && !sweep.summary["sizes_bytes"].empty())
    range = FormatSize(sweep.summary["sizes_bytes"].front().get<uint64_t>()) + ".." +
            FormatSize(sweep.summary["sizes_bytes"].back().get<uint64_t>());
  std::string tags;
  for (const auto& [k, v] : point.tags) tags += (tags.empty() ? "" : " ") + k + "=" + v;
  bool partial = sweep.summary.value("partial", true);
  return fmt::format("{:>5}  {:<20}  {:<24}  {:<18}  sweep of {} points, file sizes {}, see results show s{}  {}{}\n",
                     "s" + std::to_string(sweep.id), sweep.started_at, point.name.substr(0, 24),
                     point.target.substr(0, 18), sweep.run_count, range, sweep.id, partial ? "[partial] " : "", tags);
}

std::string DiagnosisListLine(const Diagnosis& d, size_t steps) {
  std::string figure = d.end_to_end_mb_per_s
                           ? fmt::format("{:.1f} MB/s{} end to end", *d.end_to_end_mb_per_s,
                                         d.end_to_end_direction.empty() ? "" : " " + d.end_to_end_direction)
                           : std::string("end to end not measured");
  std::string cap = d.cap_layer.empty()           ? ""
                    : d.unexplained_shortfall_pct ? fmt::format(", {:.0f} % short of the {}, unexplained",
                                                                *d.unexplained_shortfall_pct, d.cap_layer)
                                                  : ", capped by " + d.cap_layer;
  return fmt::format("{:>5}  {:<20}  {:<24}  {:<18}  diagnosis of {} step{}, {}{}, see results show d{}  {}\n",
                     "d" + std::to_string(d.id), d.started_at, "diagnose", d.evidence.target.substr(0, 18), steps,
                     steps == 1 ? "" : "s", figure, cap, d.id, d.partial ? "[partial]" : "");
}

// The diagnosis a listed run is a step of (its diagnosis=dN tag), or nullptr.
const Diagnosis* StepOf(const std::map<int64_t, Diagnosis>& diagnoses, const RunResult& r) {
  auto tag = r.tags.find("diagnosis");
  if (tag == r.tags.end() || tag->second.size() < 2 || tag->second[0] != 'd') return nullptr;
  for (char c : tag->second.substr(1))
    if (c < '0' || c > '9') return nullptr;
  auto it = diagnoses.find(std::strtoll(tag->second.c_str() + 1, nullptr, 10));
  return it == diagnoses.end() ? nullptr : &it->second;
}

}  // namespace

std::string RunListLine(const RunResult& r) {
  std::string label = !r.test.empty() ? r.test : r.name;
  if (!r.test.empty() && !r.name.empty() && r.name.rfind(r.test, 0) != 0) label = r.name + " " + r.test;
  std::string tags;
  for (const auto& [k, v] : r.tags) tags += (tags.empty() ? "" : " ") + k + "=" + v;
  std::string source = r.source_tool == "nasperf" ? "" : "[" + r.source_tool + "] ";
  return fmt::format("{:>5}  {:<20}  {:<24}  {:<18}  {:<9} {:>7} QD{:<3} T{:<2} {:>10} {:>10}  {}{}{}\n", r.id,
                     r.started_at, label.substr(0, 24), r.target.substr(0, 18), ToString(r.job.rw),
                     r.job.bs % 1024 == 0 ? std::to_string(r.job.bs / 1024) + "k" : std::to_string(r.job.bs),
                     QueueDepthRun(r), r.job.threads, DirectionFigure(r.read), DirectionFigure(r.write), source,
                     r.partial ? "[partial] " : "", tags);
}

int ResultsList(const ResultsCommandOptions& o) {
  Result<std::vector<RunResult>> runs = MatchingRuns(o, false);
  if (!runs.ok()) return ReportFailure(runs.status());
  Result<ResultsStore> store = OpenResultsStore(o, StoreAccess::kRead);
  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(runs.value());
    if (store.ok()) {
      Result<std::vector<Diagnosis>> all = store.value().ListDiagnoses();
      if (!all.ok()) return ReportFailure(all.status());
      // Each diagnosis in brief (the whole document is `results show dN --json`); the
      // key only when there is one, so older readers see the document they knew.
      for (const Diagnosis& d : all.value())
        doc["diagnoses"].push_back(
            {{"id", "d" + std::to_string(d.id)},
             {"started_at", d.started_at},
             {"target", d.evidence.target},
             {"end_to_end_mb_per_s",
              d.end_to_end_mb_per_s ? nlohmann::ordered_json(*d.end_to_end_mb_per_s) : nlohmann::ordered_json(nullptr)},
             {"cap_layer", d.cap_layer},
             {"partial", d.partial}});
    }
    std::printf("%s\n", doc.dump(2).c_str());
    return 0;
  }
  std::map<int64_t, InvocationRecord> sweeps;
  std::map<int64_t, Diagnosis> diagnoses;
  if (store.ok()) {
    Result<std::vector<InvocationRecord>> found = store.value().ListInvocations("sweep");
    if (!found.ok()) return ReportFailure(found.status());
    for (InvocationRecord& r : found.value()) sweeps[r.id] = std::move(r);
    Result<std::vector<Diagnosis>> all = store.value().ListDiagnoses();
    if (!all.ok()) return ReportFailure(all.status());
    for (Diagnosis& d : all.value()) diagnoses[d.id] = std::move(d);
  }
  std::map<int64_t, size_t> steps;  // listed runs of each diagnosis
  for (const RunResult& r : runs.value())
    if (const Diagnosis* d = StepOf(diagnoses, r)) ++steps[d->id];
  std::printf("%5s  %-20s  %-24s  %-18s  %-9s %7s %-4s %-3s %10s %10s  %s\n", "ID", "STARTED (UTC)", "NAME / TEST",
              "TARGET", "RW", "BS", "QD", "T", "READ MB/s", "WRITE MB/s", "TAGS");
  // A diagnosis that stored no step yet is listed only when nothing is filtered, in its
  // place by start time (runs and diagnoses both come newest first).
  const bool unfiltered = o.tags.empty() && o.name.empty() && o.since.empty() && o.target.empty() && o.last.empty();
  std::vector<const Diagnosis*> stepless;
  if (unfiltered)
    for (auto it = diagnoses.rbegin(); it != diagnoses.rend(); ++it)
      if (!steps.count(it->first)) stepless.push_back(&it->second);
  std::stable_sort(stepless.begin(), stepless.end(),
                   [](const Diagnosis* a, const Diagnosis* b) { return a->started_at > b->started_at; });
  size_t next_stepless = 0, lines = 0;
  auto flush_stepless = [&](const std::string& not_before) {
    for (; next_stepless < stepless.size() && stepless[next_stepless]->started_at >= not_before;
         ++next_stepless, ++lines)
      std::printf("%s", DiagnosisListLine(*stepless[next_stepless], 0).c_str());
  };
  // A sweep's points are one item: its first matching point stands for it; so are a
  // diagnosis's steps.
  std::set<int64_t> shown, shown_diagnoses;
  for (const RunResult& r : runs.value()) {
    flush_stepless(r.started_at);
    ++lines;
    auto sweep = sweeps.find(r.invocation_id);
    if (const Diagnosis* d = StepOf(diagnoses, r)) {
      if (shown_diagnoses.insert(d->id).second) std::printf("%s", DiagnosisListLine(*d, steps[d->id]).c_str());
    } else if (sweep == sweeps.end()) {
      std::printf("%s", RunListLine(r).c_str());
    } else if (shown.insert(r.invocation_id).second) {
      std::printf("%s", SweepListLine(sweep->second, r).c_str());
    }
  }
  flush_stepless("");
  if (lines == 0) std::printf("(no runs in %s match)\n", ResultsDbPath(o).c_str());
  return 0;
}

}  // namespace nasperf
