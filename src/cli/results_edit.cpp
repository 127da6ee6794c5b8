// `nasperf results tag` and `results rm`: edits of stored runs.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/results_subcommands.h"
#include "cli/stored_items.h"

namespace nasperf {

int ResultsTag(const ResultsCommandOptions& o) {
  if (o.ids.size() < 2) return ReportFailure(Status::BadInput("tag: usage: nasperf results tag ID key=value ..."));
  Result<int64_t> id = ParseRunId(o.ids[0]);
  if (!id.ok()) return ReportFailure(id.status());
  Result<std::map<std::string, std::string>> tags = ParseTags({o.ids.begin() + 1, o.ids.end()}, "tag");
  if (!tags.ok()) return ReportFailure(tags.status());
  Result<ResultsStore> store = OpenResultsStore(o, StoreAccess::kWrite);
  if (!store.ok()) return ReportFailure(store.status());
  for (const auto& [k, v] : tags.value())
    if (Status s = store.value().SetTag(id.value(), k, v); !s.ok()) return ReportFailure(s);
  if (!o.common.json) std::printf("run %lld tagged\n", static_cast<long long>(id.value()));
  return 0;
}

int ResultsRemove(const ResultsCommandOptions& o) {
  Result<std::vector<int64_t>> ids = ParseRunIds(o.ids);
  if (!ids.ok()) return ReportFailure(ids.status());
  if (ids.value().empty()) return ReportFailure(Status::BadInput("rm: give the IDs of the runs to remove"));
  Result<ResultsStore> opened = OpenResultsStore(o, StoreAccess::kWrite);
  if (!opened.ok()) return ReportFailure(opened.status());
  ResultsStore& store = opened.value();
  // Every run is checked before any is removed: absent, or still being measured.
  for (int64_t id : ids.value())
    if (Status s = store.CheckRemovable(id, o.force); !s.ok()) return ReportFailure(s);
  if (!o.yes) {
    if (!::isatty(STDIN_FILENO))
      return ReportFailure(
          Status::BadInput("rm: stdin is not a terminal to ask on; add --yes to remove without asking"));
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

}  // namespace nasperf
