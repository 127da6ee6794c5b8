// `nasperf results export` and `results import`: runs out of the database and into it.
#include <cstdio>
#include <map>
#include <optional>

#include "base/clock.h"
#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "import/import.h"
#include "import/nasperf_import.h"
#include "model/run_json.h"
#include "report/csv_report.h"

namespace nasperf {

int ResultsExport(const ResultsCommandOptions& o) {
  if (o.csv == o.common.json) return ReportFailure(Status::BadInput("export: choose one of --csv or --json"));
  Result<std::vector<RunResult>> runs = MatchingRuns(o, true);
  if (!runs.ok()) return ReportFailure(runs.status());
  if (o.csv)
    std::printf("%s", RunsToCsv(runs.value()).c_str());
  else
    std::printf("%s\n", DocumentToJson(runs.value()).dump(2).c_str());
  return 0;
}

int ResultsImport(const ResultsCommandOptions& o) {
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
  Result<ResultsStore> opened = OpenResultsStore(o, StoreAccess::kCreate);
  if (!opened.ok()) return ReportFailure(opened.status());
  ResultsStore& store = opened.value();
  // One transaction: a run that cannot be stored leaves neither runs nor an invocation.
  if (Status s = store.SaveInvocation("import", o.common.command_line, UtcTimestamp(), runs); !s.ok())
    return ReportFailure(s);
  if (o.common.json) {
    std::printf("%s\n", DocumentToJson(runs).dump(2).c_str());
  } else {
    for (const RunResult& r : runs) std::printf("%s", RunListLine(r).c_str());
    std::printf("imported %zu run(s) into %s\n", runs.size(), store.path().c_str());
  }
  return 0;
}

}  // namespace nasperf
