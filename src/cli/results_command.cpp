// The `results` subcommands. Each opens the database, checks its arguments (bad ones
// are exit 2 with one line) and renders with the same table/JSON code as `run`.
#include "cli/results_command.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/stored_items.h"
#include "base/units.h"
#include "import/bounded_read.h"
#include "import/import.h"
#include "import/nasperf_import.h"
#include "import/run_checks.h"
#include "base/bounded_json.h"
#include "base/clock.h"
#include "report/compare.h"
#include "report/csv_report.h"
#include "model/run_json.h"
#include "report/sweep_report.h"
#include "report/table_report.h"
#include "store/results_store.h"
#include "suite/sweep_summary.h"
#include "report/inventory_text.h"

namespace nasperf {
namespace {

std::string DbPath(const ResultsCommandOptions& o) {
  return o.common.db.empty() ? ResultsStore::DefaultPath() : o.common.db;
}

enum class Access { kRead, kWrite, kCreate };

// Opened only after the arguments are checked: bad input must not create a database.
// Commands that only read never create one either, and open it read-only, so that they
// work on a read-only file or file system.
Result<ResultsStore> OpenStore(const ResultsCommandOptions& o, Access access) {
  std::string path = DbPath(o);
  if (access != Access::kCreate && ::access(path.c_str(), F_OK) != 0)
    return Status::BadInput("no results database at " + path + " yet: nothing has been stored (see --db)");
  return access == Access::kRead ? ResultsStore::OpenReadOnly(path) : ResultsStore::Open(path);
}

// YYYY-MM-DD, then optionally [T ]HH, :MM, :SS and Z: a day that exists (2026-02-30 and
// 2026-13-45 do not) and a time of day. Scanned by hand, without std::regex.
bool IsCalendarDate(const std::string& text) {
  size_t i = 0;
  auto number = [&](size_t digits, int* value) {
    if (text.size() - i < digits) return false;
    *value = 0;
    for (size_t end = i + digits; i < end; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      *value = *value * 10 + (text[i] - '0');
    }
    return true;
  };
  auto literal = [&](char c) { return i < text.size() && text[i] == c ? (++i, true) : false; };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!number(4, &year) || !literal('-') || !number(2, &month) || !literal('-') || !number(2, &day)) return false;
  if (month < 1 || month > 12) return false;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day < 1 || day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return false;
  if (i == text.size()) return true;
  if (!literal('T') && !literal(' ')) return false;
  if (!number(2, &hour) || hour > 23) return false;
  if (literal(':')) {
    if (!number(2, &minute) || minute > 59) return false;
    if (literal(':') && (!number(2, &second) || second > 59)) return false;
  }
  literal('Z');
  return i == text.size();
}

Result<RunFilter> BuildFilter(const ResultsCommandOptions& o) {
  RunFilter filter;
  Result<std::map<std::string, std::string>> tags = ParseTags(o.tags);
  if (!tags.ok()) return tags.status();
  filter.tags = tags.value();
  filter.name = o.name;
  filter.target = o.target;
  if (!o.since.empty()) {
    if (!IsCalendarDate(o.since))
      return Status::BadInput("--since: '" + o.since + "' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC)");
    filter.since = o.since;
    if (filter.since.size() > 10) filter.since[10] = 'T';
  }
  if (!o.last.empty()) {
    Result<uint64_t> last = ParseCount(o.last, "--last");
    if (!last.ok() || last.value() == 0) return Status::BadInput("--last: '" + o.last + "' is not a positive count");
    filter.limit = static_cast<int64_t>(last.value());
  }
  return filter;
}

std::string DirectionFigure(const std::optional<DirectionResult>& d) {
  return DidIo(d) ? fmt::format("{:.2f}", d->mb_per_s) : "-";
}

std::string ListLine(const RunResult& r) {
  std::string label = !r.test.empty() ? r.test : r.name;
  if (!r.test.empty() && !r.name.empty() && r.name.rfind(r.test, 0) != 0) label = r.name + " " + r.test;
  std::string tags;
  for (const auto& [k, v] : r.tags) tags += (tags.empty() ? "" : " ") + k + "=" + v;
  std::string source = r.source_tool == "nasperf" ? "" : "[" + r.source_tool + "] ";
  return fmt::format("{:>5}  {:<20}  {:<24}  {:<18}  {:<9} {:>7} QD{:<3} T{:<2} {:>10} {:>10}  {}{}{}\n", r.id,
                     r.started_at, label.substr(0, 24), r.target.substr(0, 18), ToString(r.job.rw),
                     r.job.bs % 1024 == 0 ? std::to_string(r.job.bs / 1024) + "k" : std::to_string(r.job.bs), QueueDepthRun(r),
                     r.job.threads, DirectionFigure(r.read), DirectionFigure(r.write), source,
                     r.partial ? "[partial] " : "", tags);
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

// Runs matching the filter options; none when there is no database yet.
Result<std::vector<RunResult>> Matching(const ResultsCommandOptions& o, bool details) {
  Result<RunFilter> filter = BuildFilter(o);
  if (!filter.ok()) return filter.status();
  if (::access(DbPath(o).c_str(), F_OK) != 0) return std::vector<RunResult>{};
  Result<ResultsStore> store = OpenStore(o, Access::kRead);
  if (!store.ok()) return store.status();
  return store.value().List(filter.value(), details);
}

int List(const ResultsCommandOptions& o) {
  Result<std::vector<RunResult>> runs = Matching(o, false);
  if (!runs.ok()) return ReportFailure(runs.status());
  if (o.common.json) {
    std::printf("%s\n", DocumentToJson(runs.value()).dump(2).c_str());
    return 0;
  }
  Result<ResultsStore> store = OpenStore(o, Access::kRead);
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
      std::printf("%s", ListLine(r).c_str());
    } else if (shown.insert(r.invocation_id).second) {
      std::printf("%s", SweepListLine(sweep->second, r).c_str());
    }
  }
  if (runs.value().empty()) std::printf("(no runs in %s match)\n", DbPath(o).c_str());
  return 0;
}

Result<std::vector<int64_t>> ParseIds(const std::vector<std::string>& texts) {
  std::vector<int64_t> ids;
  for (const std::string& t : texts) {
    Result<int64_t> id = ParseRunId(t);
    if (!id.ok()) return id.status();
    ids.push_back(id.value());
  }
  return ids;
}

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

int Show(const ResultsCommandOptions& o) {
  std::vector<StoredId> ids;
  for (const std::string& text : o.ids) {
    Result<StoredId> id = ParseStoredId(text);
    if (!id.ok()) return ReportFailure(id.status());
    ids.push_back(id.value());
  }
  Result<ResultsStore> store = OpenStore(o, Access::kRead);
  if (!store.ok()) return ReportFailure(store.status());
  bool any_sweep = std::any_of(ids.begin(), ids.end(), [](const StoredId& i) { return i.sweep; });
  if (any_sweep && ids.size() > 1)
    return ReportFailure(Status::BadInput("show: a sweep (s7) is shown on its own; give one sweep id"));
  if (any_sweep) return ShowSweep(store.value(), o, ids.front().id);
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
  return 0;
}

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
  if (first.protocol) column.heading += " " + first.protocol->label();
  else if (first.engine == "net") column.heading += " net";
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
    return Status::BadInput("compare: give at least two run IDs (the store has runs of " +
                            std::to_string(ids.size()) + " target(s) only; nasperf results list shows them)");
  return ids;
}

int CompareRuns(const ResultsCommandOptions& o) {
  if (o.ids.size() == 1) return ReportFailure(Status::BadInput("compare: give at least two run IDs, or none"));
  Result<std::vector<int64_t>> ids = ParseIds(o.ids);
  if (!ids.ok()) return ReportFailure(ids.status());
  std::optional<LineRate> line;
  if (!o.line.empty()) {
    Result<LineRate> parsed = ParseLineRate(o.line);
    if (!parsed.ok()) return ReportFailure(parsed.status());
    line = parsed.value();
  }
  Result<ResultsStore> store = OpenStore(o, Access::kRead);
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

int Tag(const ResultsCommandOptions& o) {
  if (o.ids.size() < 2) return ReportFailure(Status::BadInput("tag: usage: nasperf results tag ID key=value ..."));
  Result<int64_t> id = ParseRunId(o.ids[0]);
  if (!id.ok()) return ReportFailure(id.status());
  Result<std::map<std::string, std::string>> tags = ParseTags({o.ids.begin() + 1, o.ids.end()}, "tag");
  if (!tags.ok()) return ReportFailure(tags.status());
  Result<ResultsStore> store = OpenStore(o, Access::kWrite);
  if (!store.ok()) return ReportFailure(store.status());
  for (const auto& [k, v] : tags.value())
    if (Status s = store.value().SetTag(id.value(), k, v); !s.ok()) return ReportFailure(s);
  if (!o.common.json) std::printf("run %lld tagged\n", static_cast<long long>(id.value()));
  return 0;
}

int Remove(const ResultsCommandOptions& o) {
  Result<std::vector<int64_t>> ids = ParseIds(o.ids);
  if (!ids.ok()) return ReportFailure(ids.status());
  if (ids.value().empty()) return ReportFailure(Status::BadInput("rm: give the IDs of the runs to remove"));
  Result<ResultsStore> opened = OpenStore(o, Access::kWrite);
  if (!opened.ok()) return ReportFailure(opened.status());
  ResultsStore& store = opened.value();
  // Every run is checked before any is removed: absent, or still being measured.
  for (int64_t id : ids.value())
    if (Status s = store.CheckRemovable(id, o.force); !s.ok()) return ReportFailure(s);
  if (!o.yes) {
    if (!::isatty(STDIN_FILENO))
      return ReportFailure(Status::BadInput("rm: stdin is not a terminal to ask on; add --yes to remove without asking"));
    std::fprintf(stderr, "remove %zu run(s) from %s? [y/N] ", ids.value().size(), store.path().c_str());
    std::string answer;
    std::getline(std::cin, answer);
    if (answer != "y" && answer != "Y" && answer != "yes") {
      std::fprintf(stderr, "nothing removed\n");
      return 1;
    }
  }
  for (int64_t id : ids.value())
    if (Status s = store.Remove(id, o.force); !s.ok()) return ReportFailure(s);
  if (!o.common.json) std::printf("removed %zu run(s)\n", ids.value().size());
  return 0;
}

int Export(const ResultsCommandOptions& o) {
  if (o.csv == o.common.json) return ReportFailure(Status::BadInput("export: choose one of --csv or --json"));
  Result<std::vector<RunResult>> runs = Matching(o, true);
  if (!runs.ok()) return ReportFailure(runs.status());
  if (o.csv) std::printf("%s", RunsToCsv(runs.value()).c_str());
  else std::printf("%s\n", DocumentToJson(runs.value()).dump(2).c_str());
  return 0;
}

int Import(const ResultsCommandOptions& o) {
  if (o.files.empty()) return ReportFailure(Status::BadInput("import: give the files to import"));
  const bool nasperf_format = o.format == "nasperf" || o.format == "NASPERF";
  Result<ImportFormat> format =
      nasperf_format ? Result<ImportFormat>(ImportFormat::kAuto) : ParseImportFormat(o.format);
  if (!format.ok()) return ReportFailure(format.status());
  Result<std::map<std::string, std::string>> tags = ParseTags(o.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  // Every file is read before anything is stored: a bad file stores nothing.
  std::vector<RunResult> runs;
  for (const std::string& file : o.files) {
    std::optional<Result<std::vector<RunResult>>> ours;
    if (nasperf_format || format.value() == ImportFormat::kAuto) ours = ImportNasperfDocument(file, nasperf_format);
    Result<std::vector<RunResult>> imported = ours ? std::move(*ours) : ImportFile(file, format.value());
    if (!imported.ok()) return ReportFailure(imported.status());
    for (RunResult& r : imported.value()) {
      for (const auto& [k, v] : tags.value()) r.tags[k] = v;
      if (!o.import_name.empty()) r.name = o.import_name;
      if (r.started_at.empty()) r.started_at = UtcTimestamp();
      // nasperf's own runs keep the command that measured them.
      if (!ours || r.command_line.empty()) r.command_line = o.common.command_line;
      runs.push_back(std::move(r));
    }
  }
  Result<ResultsStore> opened = OpenStore(o, Access::kCreate);
  if (!opened.ok()) return ReportFailure(opened.status());
  ResultsStore& store = opened.value();
  // One transaction: a run that cannot be stored leaves neither runs nor an invocation.
  if (Status s = store.SaveInvocation("import", o.common.command_line, UtcTimestamp(), runs); !s.ok())
    return ReportFailure(s);
  if (o.common.json) {
    std::printf("%s\n", DocumentToJson(runs).dump(2).c_str());
  } else {
    for (const RunResult& r : runs) std::printf("%s", ListLine(r).c_str());
    std::printf("imported %zu run(s) into %s\n", runs.size(), store.path().c_str());
  }
  return 0;
}

void AddFilterOptions(CLI::App& app, ResultsCommandOptions& o) {
  app.add_option("--tag", o.tags, "only runs with this tag: --tag key=value (repeatable)")->allow_extra_args(false);
  app.add_option("--name", o.name, "only runs with this name");
  app.add_option("--since", o.since, "only runs started on or after this date (YYYY-MM-DD, UTC)");
  app.add_option("--target", o.target, "only runs on this target");
  app.add_option("--last", o.last, "only the newest N runs");
}

}  // namespace

Result<RunFilter> BuildRunFilter(const ResultsCommandOptions& o) { return BuildFilter(o); }

void AddRunFilterOptions(CLI::App& app, ResultsCommandOptions& o) { AddFilterOptions(app, o); }

CLI::App* AddResultsCommand(CLI::App& app, ResultsCommandOptions& o) {
  CLI::App* results = app.add_subcommand("results", "list, show, compare, tag, remove, export and import stored runs");
  results->require_subcommand(1);
  AddOutputOptions(*results, o.common);

  CLI::App* list = results->add_subcommand("list", "one line per stored run, newest first");
  AddFilterOptions(*list, o);
  CLI::App* show = results->add_subcommand("show", "everything stored about runs");
  show->add_option("ID", o.ids, "run ids, or one sweep id (s7)")->required();
  CLI::App* compare = results->add_subcommand("compare", "runs side by side; a quick run brings its whole set");
  compare->add_option("ID", o.ids,
                      "run ids, the first is the baseline (default: the newest run or quick set of each target, "
                      "up to six, oldest first)");
  compare->add_option(
      "--line", o.line,
      "also show each MB/s figure as % of a line rate: 1g, 2.5g, 10g (Gbit/s), 100m (Mbit/s) or MB/s (67)");
  CLI::App* tag = results->add_subcommand("tag", "add or change tags: tag ID key=value ...");
  tag->add_option("ARGS", o.ids, "ID key=value ...")->required();
  CLI::App* rm = results->add_subcommand("rm", "remove runs");
  rm->add_option("ID", o.ids, "run ids")->required();
  rm->add_flag("--yes,-y", o.yes, "do not ask");
  rm->add_flag("--force", o.force,
               "remove even a run recorded as in progress on another host (whose process this host cannot check)");
  CLI::App* exp = results->add_subcommand("export", "all matching runs as CSV or the JSON document");
  exp->add_flag("--csv", o.csv, "CSV, one row per run and direction");
  AddFilterOptions(*exp, o);
  CLI::App* imp = results->add_subcommand("import", "store runs measured by fio, iozone, CrystalDiskMark or nasperf");
  imp->add_option("FILE", o.files,
                  "fio --output-format=json, iozone -a / -R report, CrystalDiskMark text, nasperf's --json document")
      ->required();
  imp->add_option("--format", o.format, "auto | nasperf | fio | iozone | cdm (default auto)");
  imp->add_option("--tag", o.tags, "label the imported runs: --tag key=value")->allow_extra_args(false);
  imp->add_option("--name", o.import_name, "a name for the imported runs");
  for (CLI::App* sub : {list, show, compare, tag, rm, exp, imp}) AddOutputOptions(*sub, o.common);
  return results;
}

int ResultsCommand(CLI::App& results, const ResultsCommandOptions& o) {
  if (results.got_subcommand("list")) return List(o);
  if (results.got_subcommand("show")) return Show(o);
  if (results.got_subcommand("compare")) return CompareRuns(o);
  if (results.got_subcommand("tag")) return Tag(o);
  if (results.got_subcommand("rm")) return Remove(o);
  if (results.got_subcommand("export")) return Export(o);
  if (results.got_subcommand("import")) return Import(o);
  return ReportFailure(Status::BadInput("results: unknown subcommand"));
}

}  // namespace nasperf
