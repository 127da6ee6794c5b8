// Declaration and parsing of the job options.
#include "cli/job_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "base/units.h"
#include "target/page_cache.h"
#include "workload/block_size_mix.h"
#include "model/job_validate.h"

namespace nasperf {

void AddOutputOptions(CLI::App& app, CommonOptions& options) {
  app.add_flag("--json", options.json, "print the JSON result document on stdout (nothing else)");
  app.add_option("--db", options.db, "results database (default $NASPERF_DB or ~/.local/share/nasperf/results.db)");
}

void AddCommonOptions(CLI::App& app, CommonOptions& options) {
  AddOutputOptions(app, options);
  app.add_option("--name", options.name, "a name for this run");
  app.add_option("--tag", options.tags, "label the run: --tag key=value (repeatable)")->allow_extra_args(false);
  app.add_flag("--no-store", options.no_store, "do not save the run in the results database");
}

Result<double> ParseScale(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (text.empty() || end != begin + text.size() || errno != 0 || !std::isfinite(value) || !(value > 0))
    return Status::BadInput("--scale must be a number above 0, got '" + text + "'");
  return value;
}

Result<std::map<std::string, std::string>> ParseTags(const std::vector<std::string>& tags, const std::string& what) {
  std::map<std::string, std::string> out;
  for (const std::string& tag : tags) {
    size_t eq = tag.find('=');
    if (eq == 0 || eq == std::string::npos) return Status::BadInput(what + ": '" + tag + "' is not key=value");
    // A tag is printed on one line of `results list`: no newline, tab or other control byte.
    for (unsigned char c : tag)
      if (c < 0x20 || c == 0x7F)
        return Status::BadInput(what + ": '" + tag + "' holds a control character (a newline?); tags are one line");
    out[tag.substr(0, eq)] = tag.substr(eq + 1);
  }
  return out;
}

namespace {

// The job options that are not the job's own fields: where it runs and how caches are
// treated around it. Shown in --help where they always were, and in the README's table.
struct SessionOption {
  const char* name;
  const char* help;
  const char* doc;  // nullptr: not in the README's table (the README's prose covers it)
  const char* doc_default;
};
constexpr SessionOption kTarget = {"TARGET", "directory, .nasperf-* or read-only file, block device, or null: (default .)",
                                   nullptr, nullptr};
constexpr SessionOption kDropCaches = {
    "--drop-caches", "buffered reads: also drop every cache (/proc/sys/vm/drop_caches, root) before each repeat",
    "root: before each buffered repeat that reads, also write `/proc/sys/vm/drop_caches`", "off"};
constexpr SessionOption kAllowDestructive = {"--allow-destructive",
                                             "allow writes to this block device (destroys its data)", nullptr, nullptr};

constexpr uint32_t kRepeatUntilDefaultCap = 10;

// What each command offers, in the order its --help lists it.
constexpr const char* kRunLayout[] = {"TARGET",   "--size",   "--repeat", "--engine",   "--pattern",  "--drop-caches",
                                      "--rw",     "--mix",    "--bs",     "--bs-read",  "--bs-write", "--random",
                                      "--dist",   "--align",  "--qd",     "--threads",  "--shared-file", "--time",
                                      "--ramp",   "--direct", "--buffered", "--fsync",  "--verify", "--seed",
                                      "--allow-destructive",
                                      "--rate",   "--rate-iops", "--think", "--burst",
                                      "--steady", "--repeat-until", "--stonewall"};
constexpr const char* kQuickLayout[] = {"TARGET", "--size", "--repeat", "--engine", "--pattern", "--drop-caches", "--time"};
// quick runs a set of tests: its --time caps each, and it starts from its own defaults.
constexpr const char* kQuickTimeHelp = "stop each test after this long even if the file is not done (default 5s)";
constexpr std::pair<const char*, const char*> kQuickDefaults[] = {{"--size", "1g"}, {"--repeat", "3"}, {"--time", "5s"}};

void AddSessionOption(CLI::App& app, std::string_view name, JobInput& in) {
  if (name == kTarget.name) {
    app.add_option(kTarget.name, in.target, kTarget.help);
  } else if (name == kDropCaches.name) {
    app.add_flag(kDropCaches.name, in.drop_caches, kDropCaches.help);
  } else {
    app.add_option(kAllowDestructive.name, in.allow_destructive, kAllowDestructive.help)->allow_extra_args(false);
  }
}

void AddTableOption(CLI::App& app, const JobOption& option, const char* help, JobInput& in) {
  if (!option.value_name) {
    app.add_flag_callback(option.name, [&in, &option] { in.Give(option.name, ""); }, help);
    return;
  }
  app.add_option_function<std::string>(option.name, [&in, &option](const std::string& text) { in.Give(option.name, text); },
                                       help);
}

}  // namespace

void JobInput::Give(std::string_view name, const std::string& text) {
  const JobOption* option = FindJobOption(name);
  if (!option) {
    given_.push_back({nullptr, std::string(name), Status::BadInput("no job option " + std::string(name))});
    return;
  }
  std::erase_if(given_, [option](const Given& g) { return g.option == option; });  // the last one counts
  // An option without a default text: empty is "not given", as it always was.
  if (text.empty() && option->value_name && !option->default_text) return;
  Status parsed = option->parse(text, job);
  given_.push_back({option, text, parsed});
}

bool JobInput::given(std::string_view name) const {
  for (const Given& g : given_)
    if (g.option && name == g.option->name) return true;
  return false;
}

std::string JobInput::text(std::string_view name) const {
  for (const Given& g : given_)
    if (g.option && name == g.option->name) return g.text;
  return "";
}

void AddJobOptions(CLI::App& app, JobInput& in, JobOptionSet set) {
  const bool quick = set == JobOptionSet::kQuick;
  if (quick)
    for (const auto& [name, text] : kQuickDefaults) in.Give(name, text);
  const std::span<const char* const> layout = quick ? std::span<const char* const>(kQuickLayout) : kRunLayout;
  for (const char* name : layout) {
    if (const JobOption* option = FindJobOption(name)) {
      const bool quick_time = quick && std::string_view(name) == "--time";
      AddTableOption(app, *option, quick_time ? kQuickTimeHelp : option->help, in);
    } else {
      AddSessionOption(app, name, in);
    }
  }
}

namespace {

// Parse errors of what was given, in table order (the first option in the table wins).
Status FirstParseError(const JobInput& in) {
  for (const JobInput::Given& g : in.given_)
    if (!g.option && !g.parsed.ok()) return g.parsed;
  for (const JobOption& option : JobOptionTable())
    for (const JobInput::Given& g : in.given_)
      if (g.option == &option && !g.parsed.ok()) return g.parsed;
  return Status::Ok();
}

// What needs more than one option, or the target.
Status CheckAcross(const JobInput& in, const JobSpec& job, const Target& target) {
  // A mix the job cannot honour would be stored as if it had run.
  if (in.given("--mix") && !(DoesReads(job.rw) && DoesWrites(job.rw)))
    return Status::BadInput(std::string("--mix: applies to --rw rw and randrw only; --rw ") + ToString(job.rw) +
                            " does only " + (DoesReads(job.rw) ? "reads" : "writes"));
  if (std::string why; job.fsync && !target.SupportsFsync(&why)) return Status::BadInput("--fsync: " + why);
  if (job.shared_file && !target.caps().shared_file)
    return Status::BadInput("--shared-file: " + target.description() +
                            " gives each thread its own file; one shared file is for local directories, files and "
                            "devices");
  if (job.verify && target.is_null())
    return Status::BadInput("--verify: null: moves no data, so there is nothing to read back");
  if (const std::string pattern = in.given("--pattern") ? in.text("--pattern") : "random";
      job.verify && pattern != "random")
    return Status::BadInput("--verify writes its own incompressible check data; drop --pattern " + pattern);
  if (std::string why; in.drop_caches && !CanDropSystemCaches(&why)) return Status::BadInput("--drop-caches: " + why);
  // The user's own --qd with psync, which has one I/O in flight per thread: refused rather
  // than stored as a depth that never runs. A suite's depths (quick's Q8, Q32) on a
  // synchronous engine run at 1 and are labelled so (RunResult::qd_run).
  if (job.engine == "psync" && job.qd > 1)
    return Status::BadInput("--qd: the psync engine is synchronous and runs at queue depth 1, not " +
                            std::to_string(job.qd) + "; use --engine io_uring (or auto) for a deeper queue");
  return Status::Ok();
}

}  // namespace

Result<JobSpec> BuildJob(const JobInput& in, const Target& target) {
  if (Status s = FirstParseError(in); !s.ok()) return s;
  JobSpec job = in.job;
  SettleBlockSizes(job);  // bs = the largest size of the mixes, whatever order they were given in
  if (!in.given("--size"))
    if (std::optional<uint64_t> natural = target.natural_size(std::max<uint32_t>(job.regions(), 1))) job.size = *natural;
  // --repeat-until stops when the interval is narrow enough; --repeat is then its cap.
  if (in.given("--repeat-until") && !in.given("--repeat")) job.repeat = kRepeatUntilDefaultCap;
  if (Status s = CheckAcross(in, job, target); !s.ok()) return s;
  if (Status s = ValidateJob(job); !s.ok()) return s;
  return job;
}

std::string JobOptionsReadmeTable() {
  // "|" inside a cell ends it in Markdown: escape it.
  auto cell = [](const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::string out = "| option | meaning | default |\n|---|---|---|\n";
  for (const JobOption& option : JobOptionTable()) {
    std::string name = option.name;
    if (option.value_name) name += std::string(" ") + option.value_name;
    out += "| `" + cell(name) + "` | " + cell(option.doc) + " | " + cell(option.doc_default) + " |\n";
  }
  out += std::string("| `") + kDropCaches.name + "` | " + kDropCaches.doc + " | " + kDropCaches.doc_default + " |\n";
  return out;
}

}  // namespace nasperf
