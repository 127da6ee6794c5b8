// Declaration and parsing of the job options.
#include "cli/job_options.h"

#include "base/units.h"
#include "target/page_cache.h"

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

void AddJobOptions(CLI::App& app, JobOptions& o, JobOptionSet set) {
  app.add_option("TARGET", o.target, "directory, .nasperf-* or read-only file, block device, or null: (default .)");
  app.add_option("--size", o.size, "bytes per thread: 4k 1m 2g (binary) or 1MB 1GB (decimal)");
  app.add_option("--repeat", o.repeat, "run N times and report the median");
  app.add_option("--engine", o.engine, "psync | io_uring | auto (io_uring when --qd > 1)");
  app.add_option("--pattern", o.pattern, "write data: random | zero | compressible:N");
  app.add_flag("--drop-caches", o.drop_caches,
               "buffered reads: also drop every cache (/proc/sys/vm/drop_caches, root) before each repeat");
  if (set == JobOptionSet::kQuick) {
    app.add_option("--time", o.time, "stop each test after this long even if the file is not done (default 5s)");
    return;
  }
  app.add_option("--rw", o.rw, "read | write | randread | randwrite | rw | randrw");
  app.add_option("--mix", o.mix, "for rw and randrw: percent of I/Os that are reads (default 50)");
  app.add_option("--bs", o.bs, "block size per I/O (default 1m)");
  app.add_option("--qd", o.qd, "I/Os in flight per thread (default 1)");
  app.add_option("--threads", o.threads, "worker threads, each with its own file (default 1)");
  app.add_option("--time", o.time, "run for this long, looping over the file (default: one pass)");
  app.add_option("--ramp", o.ramp, "time at the start left out of the results (added before --time)");
  app.add_flag("--direct", o.direct, "O_DIRECT: bypass the page cache");
  app.add_flag("--fsync", o.fsync, "fsync before the write clock stops");
  app.add_flag("--verify", o.verify,
               "writes carry check data keyed by offset; after the run every written block is read back and checked");
  app.add_option("--seed", o.seed,
                 "reproduce a run: its \"seed\" from --json or `results show` (default: a fresh seed per run; "
                 "with --repeat, repeat 1 uses N and each later repeat a seed derived from N)");
  app.add_option("--allow-destructive", o.allow_destructive, "allow writes to this block device (destroys its data)")
      ->allow_extra_args(false);
}

Result<uint64_t> ParseCount(const std::string& text, const std::string& option) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return Status::BadInput(option + ": '" + text + "' is not a whole number");
  return std::stoull(text);
}

Result<JobSpec> BuildJob(const JobOptions& o, const Target& target) {
  JobSpec job;
  std::optional<AccessPattern> rw = ParseAccessPattern(o.rw);
  if (!rw) return Status::BadInput("--rw: '" + o.rw + "' is not one of read, write, randread, randwrite, rw, randrw");
  job.rw = *rw;

  if (!o.mix.empty()) {  // empty: not given, 50 %
    Result<uint64_t> mix = ParseCount(o.mix, "--mix");
    if (!mix.ok()) return Status::BadInput("--mix: '" + o.mix + "' is outside 0..100 (percent of I/Os that are reads)");
    job.read_mix_pct = static_cast<int>(std::min<uint64_t>(mix.value(), 1000));
    // A mix the job cannot honour would be stored as if it had run.
    if (!(DoesReads(job.rw) && DoesWrites(job.rw)))
      return Status::BadInput("--mix: applies to --rw rw and randrw only; --rw " + o.rw + " does only " +
                              (DoesReads(job.rw) ? "reads" : "writes"));
  }

  Result<uint64_t> bs = ParseSize(o.bs);
  if (!bs.ok()) return Status::BadInput("--bs: " + bs.status().message());
  job.bs = bs.value();

  Result<uint64_t> qd = ParseCount(o.qd, "--qd");
  if (!qd.ok()) return qd.status();
  job.qd = static_cast<uint32_t>(qd.value());
  Result<uint64_t> threads = ParseCount(o.threads, "--threads");
  if (!threads.ok()) return threads.status();
  job.threads = static_cast<uint32_t>(threads.value());
  Result<uint64_t> repeat = ParseCount(o.repeat, "--repeat");
  if (!repeat.ok()) return repeat.status();
  job.repeat = static_cast<uint32_t>(repeat.value());

  if (!o.seed.empty()) {
    if (o.seed.size() > 16 || o.seed.find_first_not_of("0123456789") != std::string::npos)
      return Status::BadInput("--seed: '" + o.seed + "' is not a whole number (give the \"seed\" of a stored run)");
    job.seed = std::stoull(o.seed);
  }

  if (!o.size.empty()) {
    Result<uint64_t> size = ParseSize(o.size);
    if (!size.ok()) return Status::BadInput("--size: " + size.status().message());
    job.size = size.value();
  } else if (std::optional<uint64_t> natural = target.natural_size(job.threads ? job.threads : 1)) {
    job.size = *natural;
  }
  if (!o.time.empty()) {
    Result<double> time = ParseDuration(o.time);
    if (!time.ok()) return Status::BadInput("--time: " + time.status().message());
    job.time_s = time.value();
    job.time_based = true;
  }
  Result<double> ramp = ParseDuration(o.ramp);
  if (!ramp.ok()) return Status::BadInput("--ramp: " + ramp.status().message());
  job.ramp_s = ramp.value();

  job.direct = o.direct;
  job.fsync = o.fsync;
  if (std::string why; o.fsync && !target.SupportsFsync(&why)) return Status::BadInput("--fsync: " + why);
  job.verify = o.verify;
  if (o.verify && target.is_null())
    return Status::BadInput("--verify: null: moves no data, so there is nothing to read back");
  if (o.verify && o.pattern != "random")
    return Status::BadInput("--verify writes its own incompressible check data; drop --pattern " + o.pattern);
  std::string why;
  if (o.drop_caches && !CanDropSystemCaches(&why)) return Status::BadInput("--drop-caches: " + why);
  job.engine = o.engine;
  Result<BufferPattern> pattern = ParseBufferPattern(o.pattern);
  if (!pattern.ok()) return pattern.status();
  job.pattern = pattern.value();
  // The user's own --qd with psync, which has one I/O in flight per thread: refused rather
  // than stored as a depth that never runs. A suite's depths (quick's Q8, Q32) on a
  // synchronous engine run at 1 and are labelled so (RunResult::qd_run).
  if (job.engine == "psync" && job.qd > 1)
    return Status::BadInput("--qd: the psync engine is synchronous and runs at queue depth 1, not " +
                            std::to_string(job.qd) + "; use --engine io_uring (or auto) for a deeper queue");
  if (Status s = job.Validate(); !s.ok()) return s;
  return job;
}

}  // namespace nasperf
