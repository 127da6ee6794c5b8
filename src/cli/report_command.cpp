// `nasperf report`: stored runs and sweeps as one self-contained HTML file of charts.
#include "cli/report_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/commands.h"
#include "cli/stored_items.h"
#include "base/clock.h"
#include "report/html_report.h"
#include "report/report_data.h"
#include "target/own_file.h"

namespace nasperf {
namespace {

// Writes `text` to `path` through a temporary file beside it, so a failure leaves no
// partial report and an existing file is replaced only by a complete one. The temporary
// is one of nasperf's own files (run-unique name, O_EXCL): only it is ever removed.
Status WriteAtomically(const std::string& path, const std::string& text) {
  size_t slash = path.find_last_of('/');
  std::string directory = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  Result<OwnFile> temporary = OwnFile::Create(directory, "report", 0644, "tmp");
  if (!temporary.ok()) return ErrnoStatus("-o: cannot write", path, temporary.status().err(), ErrorKind::kBadInput);
  Result<ScopedFd> fd = temporary.value().Reopen(O_WRONLY);
  if (!fd.ok()) return fd.status();
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd.value().get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoStatus("write", path, n < 0 ? errno : EIO);  // the temporary goes with `temporary`
    done += static_cast<size_t>(n);
  }
  // The report is the user's file, not a nasperf test file: it keeps no ownership mark.
  (void)::fremovexattr(fd.value().get(), kOwnMarkAttribute);
  if (::fsync(fd.value().get()) != 0 || ::rename(temporary.value().path().c_str(), path.c_str()) != 0)
    return ErrnoStatus("write", path, errno);
  return Status::Ok();
}

}  // namespace

int ReportCommand(const ReportCommandOptions& o) {
  // -o names the file to write; checked first, so nothing is read or written for nothing.
  struct stat out_st {};
  if (::stat(o.output.c_str(), &out_st) == 0 && !S_ISREG(out_st.st_mode))
    return ReportFailure(Status::BadInput("-o: " + o.output + " is " +
                                          (S_ISDIR(out_st.st_mode) ? "a directory" : "not a regular file") +
                                          "; give the HTML file to write, e.g. " + o.output +
                                          (S_ISDIR(out_st.st_mode) ? "/report.html" : ".html")));
  std::vector<ReportLine> lines = DefaultReportLines();
  for (const std::string& text : o.lines) {
    Result<ReportLine> line = ParseReportLine(text);
    if (!line.ok()) return ReportFailure(line.status());
    lines.push_back(line.value());
  }
  std::vector<StoredId> ids;
  for (const std::string& text : o.filters.ids) {
    Result<StoredId> id = ParseStoredId(text);
    if (!id.ok()) return ReportFailure(id.status());
    ids.push_back(id.value());
  }
  Result<RunFilter> filter = BuildRunFilter(o.filters);
  if (!filter.ok()) return ReportFailure(filter.status());
  const bool filtered = !o.filters.tags.empty() || !o.filters.name.empty() || !o.filters.since.empty() ||
                        !o.filters.target.empty() || !o.filters.last.empty();
  if (ids.empty() && !filtered)
    return ReportFailure(Status::BadInput("report: nothing selected; give run, sweep or diagnosis IDs, --last N, --tag or --name"));
  if (!ids.empty() && filtered)
    return ReportFailure(Status::BadInput("report: give IDs or filters (--last, --tag, --name ...), not both"));

  std::string db = o.filters.common.db.empty() ? ResultsStore::DefaultPath() : o.filters.common.db;
  if (::access(db.c_str(), F_OK) != 0)
    return ReportFailure(Status::BadInput("no results database at " + db + " yet: nothing to report (see --db)"));
  Result<ResultsStore> store = ResultsStore::OpenReadOnly(db);  // a report only reads it
  if (!store.ok()) return ReportFailure(store.status());

  // --last counts items (a sweep, a quick suite), not runs.
  RunFilter runs_filter = filter.value();
  runs_filter.limit = 0;
  Result<std::vector<ReportItem>> items =
      ids.empty() ? ItemsMatching(store.value(), runs_filter, static_cast<size_t>(filter.value().limit))
                  : ItemsById(store.value(), ids);
  if (!items.ok()) return ReportFailure(items.status());
  if (items.value().empty()) return ReportFailure(Status::BadInput("report: the selection matches no stored run in " + db));

  ReportMeta meta;
  if (!o.title.empty()) meta.title = o.title;
  meta.generated_at = UtcTimestamp();
  meta.command_line = o.filters.common.command_line;
  Result<std::string> html = RenderHtmlReport(BuildReportData(items.value(), lines, meta));
  if (!html.ok()) return ReportFailure(html.status());
  if (Status s = WriteAtomically(o.output, html.value()); !s.ok()) return ReportFailure(s);

  size_t runs = 0;
  for (const ReportItem& item : items.value()) runs += item.runs.size();
  std::printf("wrote %s: %zu item(s), %zu run(s); open it in a browser (works offline)\n", o.output.c_str(),
              items.value().size(), runs);
  return 0;
}

void AddReportCommand(CLI::App& app, ReportCommandOptions& o) {
  CLI::App* report = app.add_subcommand(
      "report", "stored runs and sweeps as one self-contained HTML file of interactive charts");
  report->add_option("ID", o.filters.ids, "run ids (12), sweep ids (s7) and diagnosis ids (d3); a run of a quick set brings the set, a step of a diagnosis the diagnosis");
  AddRunFilterOptions(*report, o.filters);
  report->add_option("-o,--output", o.output, "the HTML file to write")->required();
  report->add_option("--line", o.lines, "a reference line on throughput charts: \"LABEL=MB/s\" (repeatable)")
      ->allow_extra_args(false);
  report->add_option("--title", o.title, "the report's title");
  report->add_option("--db", o.filters.common.db, "results database (default $NASPERF_DB or ~/.local/share/nasperf/results.db)");
}

}  // namespace nasperf
