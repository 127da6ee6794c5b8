// `nasperf clean`: stale .nasperf-* files shown, and those nasperf provably made removed.
#include "cli/clean_command.h"

#include <sys/stat.h>

#include <cstdio>
#include <vector>

#include "cli/commands.h"
#include "base/units.h"
#include "target/own_file.h"

namespace nasperf {
namespace {

// At most this many note lines before a run; the rest are counted.
constexpr size_t kNotedFiles = 5;

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// "made by nasperf (pid 123 on host nas1)" or why clean leaves it.
std::string Verdict(const StaleFile& file) {
  const OwnershipCheck& check = file.check;
  if (check.verdict != Ownership::kOurs) return "left alone: " + check.why;
  return "made by nasperf (pid " + std::to_string(check.parts->pid) + " on host " + check.parts->host + ")";
}

std::string SizeText(const StaleFile& file) {
  return file.check.verdict == Ownership::kNotRegular ? "-" : FormatSize(file.check.size_bytes);
}

}  // namespace

void NoteStaleFiles(const std::string& target) {
  const std::string directory = target.empty() ? "." : target;
  if (!IsDirectory(directory)) return;
  Result<std::vector<StaleFile>> stale = FindStaleFiles(directory);
  if (!stale.ok() || stale.value().empty()) return;
  size_t ours = 0;
  for (const StaleFile& file : stale.value()) ours += file.check.verdict == Ownership::kOurs;
  size_t shown = 0;
  for (const StaleFile& file : stale.value()) {
    if (shown++ == kNotedFiles) break;
    std::fprintf(stderr, "nasperf: note: stale file %s/%s (%s, %s)\n", directory.c_str(), file.name.c_str(),
                 SizeText(file).c_str(), Verdict(file).c_str());
  }
  if (stale.value().size() > kNotedFiles)
    std::fprintf(stderr, "nasperf: note: and %zu more stale .nasperf-* file(s) in %s\n",
                 stale.value().size() - kNotedFiles, directory.c_str());
  if (ours > 0)
    std::fprintf(stderr, "nasperf: note: `nasperf clean %s` shows the %zu left by earlier runs and removes them\n",
                 directory.c_str(), ours);
}

int CleanCommand(const CleanCommandOptions& o) {
  if (!IsDirectory(o.directory))
    return ReportFailure(Status::BadInput("clean: DIR " + o.directory + " is not a directory"));
  Result<std::vector<StaleFile>> stale = FindStaleFiles(o.directory);
  if (!stale.ok()) return ReportFailure(stale.status());
  if (stale.value().empty()) {
    std::printf("no stale .nasperf-* files in %s\n", o.directory.c_str());
    return 0;
  }
  size_t ours = 0, removed = 0;
  uint64_t ours_bytes = 0, removed_bytes = 0;
  Status failed;
  for (const StaleFile& file : stale.value()) {
    std::string line = o.directory + "/" + file.name + "  " + SizeText(file) + "  " + Verdict(file);
    if (file.check.verdict == Ownership::kOurs) {
      ++ours;
      ours_bytes += file.check.size_bytes;
      if (o.yes) {
        // Judged again, by descriptor and under its lock, right before the unlink.
        Status s = RemoveStaleFile(o.directory, file.name);
        if (s.ok()) {
          ++removed;
          removed_bytes += file.check.size_bytes;
          line += ": removed";
        } else {
          line += ": not removed (" + s.message() + ")";
          if (s.kind() != ErrorKind::kBadInput) failed = s;
        }
      }
    }
    std::printf("%s\n", line.c_str());
  }
  if (o.yes)
    std::printf("removed %zu file(s), %s; %zu left alone\n", removed, FormatSize(removed_bytes).c_str(),
                stale.value().size() - removed);
  else if (ours > 0)
    std::printf("%zu file(s), %s, made by nasperf runs that are over; run `nasperf clean %s --yes` to remove them\n",
                ours, FormatSize(ours_bytes).c_str(), o.directory.c_str());
  else
    std::printf("none of them is provably nasperf's; nothing to remove (remove them by hand if they are yours)\n");
  std::fflush(stdout);
  return failed.ok() ? 0 : ReportFailure(failed);
}

void AddCleanCommand(CLI::App& app, CleanCommandOptions& o) {
  CLI::App* clean = app.add_subcommand(
      "clean", "list the stale .nasperf-* files in DIR; with --yes remove those nasperf provably made");
  clean->add_option("DIR", o.directory, "the directory to look in (default .)");
  clean->add_flag("--yes", o.yes, "remove them (without it nothing is removed)");
}

}  // namespace nasperf
