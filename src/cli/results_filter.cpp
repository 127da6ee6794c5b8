// --tag, --name, --since, --target, --last: which stored runs a `results` subcommand works on.
#include <map>
#include <string>

#include "base/units.h"
#include "cli/commands.h"
#include "cli/results_subcommands.h"

namespace nasperf {
namespace {

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

}  // namespace

Result<RunFilter> BuildRunFilter(const ResultsCommandOptions& o) {
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

void AddRunFilterOptions(CLI::App& app, ResultsCommandOptions& o) {
  app.add_option("--tag", o.tags, "only runs with this tag: --tag key=value (repeatable)")->allow_extra_args(false);
  app.add_option("--name", o.name, "only runs with this name");
  app.add_option("--since", o.since, "only runs started on or after this date (YYYY-MM-DD, UTC)");
  app.add_option("--target", o.target, "only runs on this target");
  app.add_option("--last", o.last, "only the newest N runs");
}

}  // namespace nasperf
