// The CLI side of the job options: CLI11 registration from the option table
// (model/job_options.h) for run and quick, and BuildJob, which turns what was given into a
// validated JobSpec.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/status.h"
#include "core/target.h"
#include "model/job_options.h"

namespace nasperf {

// Options every command takes: output and labelling.
struct CommonOptions {
  bool json = false;
  std::string name;
  std::vector<std::string> tags;  // "k=v"
  std::string db;                 // results database; empty: ResultsStore::DefaultPath()
  bool no_store = false;
  std::string command_line;       // set by CliMain, secrets redacted
};
// --json and --db: every command.
void AddOutputOptions(CLI::App& app, CommonOptions& options);
// Those, plus --name, --tag and --no-store: commands that make runs.
void AddCommonOptions(CLI::App& app, CommonOptions& options);
// "k=v" strings to a map; `what` names the option or command in errors.
Result<std::map<std::string, std::string>> ParseTags(const std::vector<std::string>& tags,
                                                     const std::string& what = "--tag");
// --scale of `app` and `tree gen`: a finite number above 0, the whole text.
Result<double> ParseScale(const std::string& text);

// What the user gave for the job options: each parsed into `job` by its descriptor
// (model/job_options.h) as CLI11 reads it. A parse error is kept and reported by BuildJob,
// after the target is made, so a bad target is still named first (as it always was).
// AddJobOptions binds CLI11 to it: it must stay where it is once bound.
struct JobInput {
  std::string target = ".";
  bool drop_caches = false;  // root: also /proc/sys/vm/drop_caches before cold reads
  std::vector<std::string> allow_destructive;
  JobSpec job;  // the given options, parsed; the rest at JobSpec's defaults
  // A job file's notes on how its job differs from the peer tool's (model/job_file.h):
  // they become notes of the run, in its table and JSON.
  std::vector<std::string> file_notes;

  // Parses `text` for the option `name` ("--qd"; a flag takes "") into `job`, as if typed.
  // An option that is not in the table is a programming error (BadInput from BuildJob).
  void Give(std::string_view name, const std::string& text);
  bool given(std::string_view name) const;
  // The text given for `name` ("" when not given): for messages that quote it.
  std::string text(std::string_view name) const;

  struct Given {
    const JobOption* option;
    std::string text;
    Status parsed;
  };
  std::vector<Given> given_;  // in the order given; BuildJob reports errors in table order
};

// Which of the job options a command offers. kQuick also sets quick's defaults (--size 1g,
// --repeat 3, --time 5s).
enum class JobOptionSet { kFull, kQuick };
void AddJobOptions(CLI::App& app, JobInput& input, JobOptionSet set);

// The given options' parse errors (first in table order), then what needs more than one
// option or the target; `target` supplies the default size for files and devices.
Result<JobSpec> BuildJob(const JobInput& input, const Target& target);

// The README's table of run's options (README.md, between its job-options markers),
// made from the descriptors; job_options_test fails when the README differs.
std::string JobOptionsReadmeTable();


}  // namespace nasperf
