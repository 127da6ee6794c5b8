// `nasperf results disks [--spec FILE]`: the disk models' table (seed 004) from runs tagged
// disk=MODEL, with what the spec file says about each model.
#include <cstdio>

#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "import/bounded_read.h"
#include "model/run_json.h"
#include "report/disk_table.h"

namespace nasperf {

namespace {

// A spec file is a few lines a disk; a megabyte is far more than any.
constexpr size_t kMaxSpecBytes = size_t{1} << 20;

Result<std::vector<DiskSpec>> LoadSpec(const std::string& path) {
  if (path.empty()) return std::vector<DiskSpec>{};
  Result<std::string> text = ReadBoundedFile(path, kMaxSpecBytes);
  if (!text.ok()) return Status::BadInput("--spec " + path + ": " + text.status().message());
  return ParseDiskSpec(text.value(), path);
}

}  // namespace

int ResultsDisks(const ResultsCommandOptions& o) {
  // The spec is checked before the database is opened: a bad one changes nothing.
  Result<std::vector<DiskSpec>> specs = LoadSpec(o.spec);
  if (!specs.ok()) return ReportFailure(specs.status());
  Result<std::vector<RunResult>> runs = MatchingRuns(o, false);
  if (!runs.ok()) return ReportFailure(runs.status());
  std::vector<RunResult> tagged;
  for (RunResult& r : runs.value())
    if (r.tags.count("disk")) tagged.push_back(std::move(r));
  DiskTable table = BuildDiskTable(tagged, specs.value());
  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(tagged);
    nlohmann::ordered_json disks = DiskTableJson(table);
    for (auto& [key, value] : disks.items()) doc[key] = value;
    std::printf("%s\n", doc.dump(2).c_str());
    return 0;
  }
  for (const std::string& line : DiskTableLines(table)) std::printf("%s\n", line.c_str());
  return 0;
}

}  // namespace nasperf
