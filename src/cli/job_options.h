// The job options shared by `run`, `quick` (and later `sweep`): each option is declared
// once here, with its help text; BuildJob turns what the user typed into a validated JobSpec.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/status.h"
#include "core/target.h"

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

// The raw text of the job options, before parsing.
struct JobOptions {
  std::string target = ".";
  std::string rw = "read";
  std::string mix;  // empty: not given (50 % for rw and randrw)
  std::string bs = "1m";
  std::string qd = "1";
  std::string threads = "1";
  std::string size;  // empty: the target's natural size, else 1 GiB
  std::string time;
  std::string ramp = "0";
  bool direct = false;
  bool fsync = false;
  bool verify = false;
  bool drop_caches = false;  // root: also /proc/sys/vm/drop_caches before cold reads
  std::string engine = "auto";
  std::string pattern = "random";
  std::string repeat = "1";
  std::string seed;  // empty: a fresh seed per run and repeat
  std::vector<std::string> allow_destructive;
};

// Which of the job options a command offers.
enum class JobOptionSet { kFull, kQuick };
void AddJobOptions(CLI::App& app, JobOptions& options, JobOptionSet set);

// Parses and validates; `target` supplies the default size for files and devices.
Result<JobSpec> BuildJob(const JobOptions& options, const Target& target);

// "32" -> 32 for counts like --qd; BadInput naming `option` otherwise.
Result<uint64_t> ParseCount(const std::string& text, const std::string& option);

}  // namespace nasperf
