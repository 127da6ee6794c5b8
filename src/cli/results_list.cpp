// `nasperf results list`: one line a stored run, one a sweep.
#include <fmt/format.h>

#include <cstdio>
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
  if (o.common.json) {
    std::printf("%s\n", DocumentToJson(runs.value()).dump(2).c_str());
    return 0;
  }
  Result<ResultsStore> store = OpenResultsStore(o, StoreAccess::kRead);
  std::map<int64_t, InvocationRecord> sweeps;
  if (store.ok()) {
    Result<std::vector<InvocationRecord>> found = store.value().ListInvocations("sweep");
    if (!found.ok()) return ReportFailure(found.status());
    for (InvocationRecord& r : found.value()) sweeps[r.id] = std::move(r);
  }
  std::printf("%5s  %-20s  %-24s  %-18s  %-9s %7s %-4s %-3s %10s %10s  %s\n", "ID", "STARTED (UTC)", "NAME / TEST",
              "TARGET", "RW", "BS", "QD", "T", "READ MB/s", "WRITE MB/s", "TAGS");
  // A sweep's points are one item: its first matching point stands for it.
  std::set<int64_t> shown;
  for (const RunResult& r : runs.value()) {
    auto sweep = sweeps.find(r.invocation_id);
    if (sweep == sweeps.end()) {
      std::printf("%s", RunListLine(r).c_str());
    } else if (shown.insert(r.invocation_id).second) {
      std::printf("%s", SweepListLine(sweep->second, r).c_str());
    }
  }
  if (runs.value().empty()) std::printf("(no runs in %s match)\n", ResultsDbPath(o).c_str());
  return 0;
}

}  // namespace nasperf
