// The job option table: each option's name, help, README line, default, parser, limits,
// JSON key and CSV column, side by side.
#include "model/job_options.h"

#include <algorithm>

#include "base/units.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

constexpr double kMaxSeconds = 365.0 * 24 * 3600;

Status ParseCountInto(const std::string& text, const char* option, uint32_t& field) {
  Result<uint64_t> n = ParseCount(text, option);
  if (!n.ok()) return n.status();
  field = static_cast<uint32_t>(n.value());
  return Status::Ok();
}

Status ParseSizeInto(const std::string& text, const char* option, uint64_t& field) {
  Result<uint64_t> size = ParseSize(text);
  if (!size.ok()) return Status::BadInput(std::string(option) + ": " + size.status().message());
  field = size.value();
  return Status::Ok();
}

Status ParseDurationInto(const std::string& text, const char* option, double& field) {
  Result<double> seconds = ParseDuration(text);
  if (!seconds.ok()) return Status::BadInput(std::string(option) + ": " + seconds.status().message());
  field = seconds.value();
  return Status::Ok();
}

std::string Flag01(bool on) { return on ? "1" : "0"; }

const JobOption kJobOptions[] = {
    {.name = "--rw",
     .value_name = "read|write|randread|randwrite|rw|randrw",
     .help = "read | write | randread | randwrite | rw | randrw",
     .doc = "access pattern",
     .doc_default = "read",
     .default_text = "read",
     .parse = [](const std::string& text, JobSpec& job) {
       std::optional<AccessPattern> rw = ParseAccessPattern(text);
       if (!rw) return Status::BadInput("--rw: '" + text + "' is not one of read, write, randread, randwrite, rw, randrw");
       job.rw = *rw;
       return Status::Ok();
     },
     .validate = nullptr,
     .json_key = "rw",
     .to_json = [](const JobSpec& job, ojson& out) { out["rw"] = ToString(job.rw); },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       std::optional<AccessPattern> rw = ParseAccessPattern(in.at("rw").get<std::string>());
       if (!rw) return Status::BadInput("job.rw: unknown access pattern " + in.at("rw").dump());
       job.rw = *rw;
       return Status::Ok();
     },
     .csv_column = "rw",
     .to_csv = [](const JobSpec& job) { return std::string(ToString(job.rw)); }},
    {.name = "--bs",
     .value_name = "SIZE",
     .help = "block size per I/O (default 1m)",
     .doc = "bytes per I/O",
     .doc_default = "1m",
     .default_text = "1m",
     .parse = [](const std::string& text, JobSpec& job) { return ParseSizeInto(text, "--bs", job.bs); },
     .validate = [](const JobSpec& job, bool) {
       if (job.bs == 0) return Status::BadInput("--bs: the block size must be at least 1 byte");
       if (job.bs > (1ull << 30))
         return Status::BadInput("--bs: " + FormatSize(job.bs) + " is larger than the 1 GiB limit");
       return Status::Ok();
     },
     .json_key = "bs",
     .to_json = [](const JobSpec& job, ojson& out) { out["bs"] = job.bs; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.bs = in.at("bs").get<uint64_t>();
       return Status::Ok();
     },
     .csv_column = "bs_bytes",
     .to_csv = [](const JobSpec& job) { return std::to_string(job.bs); }},
    {.name = "--qd",
     .value_name = "N",
     .help = "I/Os in flight per thread (default 1)",
     .doc = "I/Os in flight per thread",
     .doc_default = "1",
     .default_text = "1",
     .parse = [](const std::string& text, JobSpec& job) { return ParseCountInto(text, "--qd", job.qd); },
     .validate = [](const JobSpec& job, bool) {
       if (job.qd == 0) return Status::BadInput("--qd: the queue depth must be at least 1");
       if (job.qd > 65536)
         return Status::BadInput("--qd: " + std::to_string(job.qd) + " is larger than the limit of 65536");
       return Status::Ok();
     },
     .json_key = "qd",
     .to_json = [](const JobSpec& job, ojson& out) { out["qd"] = job.qd; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.qd = in.at("qd").get<uint32_t>();
       return Status::Ok();
     },
     .csv_column = "qd",
     .to_csv = [](const JobSpec& job) { return std::to_string(job.qd); }},
    {.name = "--threads",
     .value_name = "N",
     .help = "worker threads, each with its own file (default 1)",
     .doc = "worker threads, each with its own file (or region of a file/device)",
     .doc_default = "1",
     .default_text = "1",
     .parse = [](const std::string& text, JobSpec& job) { return ParseCountInto(text, "--threads", job.threads); },
     .validate = [](const JobSpec& job, bool) {
       if (job.threads == 0) return Status::BadInput("--threads: at least one thread is needed");
       if (job.threads > 1024)
         return Status::BadInput("--threads: " + std::to_string(job.threads) + " is larger than the limit of 1024");
       return Status::Ok();
     },
     .json_key = "threads",
     .to_json = [](const JobSpec& job, ojson& out) { out["threads"] = job.threads; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.threads = in.at("threads").get<uint32_t>();
       return Status::Ok();
     },
     .csv_column = "threads",
     .to_csv = [](const JobSpec& job) { return std::to_string(job.threads); }},
    {.name = "--size",
     .value_name = "SIZE",
     .help = "bytes per thread: 4k 1m 2g (binary) or 1MB 1GB (decimal)",
     .doc = "bytes per thread",
     .doc_default = "1 GiB; a file's or device's size",
     .default_text = nullptr,  // the target's natural size when it has one (BuildJob), else 1 GiB
     .parse = [](const std::string& text, JobSpec& job) { return ParseSizeInto(text, "--size", job.size); },
     .validate = [](const JobSpec& job, bool has_file) {
       if (has_file && job.size == 0) return Status::BadInput("--size: the size must be at least one block");
       if (has_file && job.size < job.bs)
         return Status::BadInput("--size: " + FormatSize(job.size) + " is smaller than the block size " +
                                 FormatSize(job.bs));
       if (static_cast<double>(job.size) * job.threads > 1e18) return Status::BadInput("--size: absurdly large");
       return Status::Ok();
     },
     .json_key = "size",
     .to_json = [](const JobSpec& job, ojson& out) { out["size"] = job.size; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.size = in.at("size").get<uint64_t>();
       return Status::Ok();
     },
     .csv_column = "size_bytes",
     .to_csv = [](const JobSpec& job) { return std::to_string(job.size); }},
    {.name = "--time",
     .value_name = "DURATION",
     .help = "run for this long, looping over the file (default: one pass)",
     .doc = "loop over the file for this long",
     .doc_default = "one pass of the file",
     .default_text = nullptr,  // not given: one pass, no time limit
     .parse = [](const std::string& text, JobSpec& job) {
       job.time_based = true;
       return ParseDurationInto(text, "--time", job.time_s);
     },
     .validate = [](const JobSpec& job, bool) {
       if (!(job.time_s >= 0) || job.time_s > kMaxSeconds) return Status::BadInput("--time: must be 0 to 365 days");
       if (job.time_based && job.time_s <= 0)
         return Status::BadInput("--time: a time-based job needs a duration above 0");
       return Status::Ok();
     },
     .json_key = "time_s",  // and "time_based"
     .to_json = [](const JobSpec& job, ojson& out) {
       out["time_s"] = job.time_s;
       out["time_based"] = job.time_based;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.time_s = in.value("time_s", 0.0);
       job.time_based = in.value("time_based", false);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--ramp",
     .value_name = "DURATION",
     .help = "time at the start left out of the results (added before --time)",
     .doc = "time at the start left out of the results",
     .doc_default = "0",
     .default_text = "0",
     .parse = [](const std::string& text, JobSpec& job) { return ParseDurationInto(text, "--ramp", job.ramp_s); },
     .validate = [](const JobSpec& job, bool) {
       if (!(job.ramp_s >= 0) || job.ramp_s > kMaxSeconds) return Status::BadInput("--ramp: must be 0 to 365 days");
       return Status::Ok();
     },
     .json_key = "ramp_s",
     .to_json = [](const JobSpec& job, ojson& out) { out["ramp_s"] = job.ramp_s; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.ramp_s = in.value("ramp_s", 0.0);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--direct",
     .value_name = nullptr,
     .help = "O_DIRECT: bypass the page cache",
     .doc = "O_DIRECT",
     .doc_default = "off",
     .default_text = nullptr,
     .parse = [](const std::string&, JobSpec& job) {
       job.direct = true;
       return Status::Ok();
     },
     .validate = nullptr,
     .json_key = "direct",
     .to_json = [](const JobSpec& job, ojson& out) { out["direct"] = job.direct; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.direct = in.value("direct", false);
       return Status::Ok();
     },
     .csv_column = "direct",
     .to_csv = [](const JobSpec& job) { return Flag01(job.direct); }},
    {.name = "--fsync",
     .value_name = nullptr,
     .help = "fsync before the write clock stops",
     .doc = "fsync before the write clock stops",
     .doc_default = "off",
     .default_text = nullptr,
     .parse = [](const std::string&, JobSpec& job) {
       job.fsync = true;
       return Status::Ok();
     },
     .validate = nullptr,
     .json_key = "fsync",
     .to_json = [](const JobSpec& job, ojson& out) { out["fsync"] = job.fsync; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.fsync = in.value("fsync", false);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--engine",
     .value_name = "psync|io_uring|auto",
     .help = "psync | io_uring | auto (io_uring when --qd > 1)",
     .doc = "how I/O is issued; auto = io_uring when qd > 1",
     .doc_default = "auto",
     .default_text = "auto",
     .parse = [](const std::string& text, JobSpec& job) {
       job.engine = text;  // JobSpec::Validate checks the name
       return Status::Ok();
     },
     .validate = nullptr,  // a document's engine may be another tool's (imports): Validate, not the limits
     .json_key = "engine",
     .to_json = [](const JobSpec& job, ojson& out) { out["engine"] = job.engine; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.engine = in.value("engine", std::string("auto"));
       return Status::Ok();
     },
     .csv_column = "engine",
     .to_csv = [](const JobSpec& job) { return job.engine; }},
    {.name = "--pattern",
     .value_name = "random|zero|compressible:N",
     .help = "write data: random | zero | compressible:N",
     .doc = "write data; every 4 KiB written is stamped with its offset, the run's seed and an I/O sequence number "
            "(not `zero`, which stays zeros and says so), and the ratio zstd achieves on a sample is reported",
     .doc_default = "random",
     .default_text = "random",
     .parse = [](const std::string& text, JobSpec& job) {
       Result<BufferPattern> pattern = ParseBufferPattern(text);
       if (!pattern.ok()) return pattern.status();
       job.pattern = pattern.value();
       return Status::Ok();
     },
     .validate = nullptr,
     .json_key = "pattern",
     .to_json = [](const JobSpec& job, ojson& out) { out["pattern"] = ToString(job.pattern); },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       Result<BufferPattern> pattern = ParseBufferPattern(in.value("pattern", std::string("random")));
       if (!pattern.ok()) return Status::BadInput("job.pattern: " + pattern.status().message());
       job.pattern = pattern.value();
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--repeat",
     .value_name = "N",
     .help = "run N times and report the median",
     .doc = "run N times, report the median, the 95 % CI of the mean (Student t) and the spread; over 10 % is "
            "flagged noisy; every repeat is stored",
     .doc_default = "1",
     .default_text = "1",
     .parse = [](const std::string& text, JobSpec& job) { return ParseCountInto(text, "--repeat", job.repeat); },
     .validate = [](const JobSpec& job, bool) {
       if (job.repeat == 0 || job.repeat > 1000) return Status::BadInput("--repeat: must be 1..1000");
       return Status::Ok();
     },
     .json_key = "repeat",
     .to_json = [](const JobSpec& job, ojson& out) { out["repeat"] = job.repeat; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.repeat = in.value("repeat", 1u);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--verify",
     .value_name = nullptr,
     .help = "writes carry check data keyed by offset; after the run every written block is read back and checked",
     .doc = "writes carry check data keyed by offset and a new seed each run; after the clock stops every block "
            "written is read back through the same engine and checked; a corrupted, misplaced or lost write fails "
            "the run (exit 1) naming its offset. Buffered local reads come from the page cache: add `--direct` to "
            "check the disk",
     .doc_default = "off",
     .default_text = nullptr,
     .parse = [](const std::string&, JobSpec& job) {
       job.verify = true;
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.verify && !DoesWrites(job.rw))
         return Status::BadInput(std::string("--verify: checks the data a job writes, and --rw ") + ToString(job.rw) +
                                 " writes nothing (use write, randwrite, rw or randrw)");
       if (job.verify && job.bs % 8 != 0)
         return Status::BadInput("--verify: the block size must be a multiple of 8 bytes");
       return Status::Ok();
     },
     .json_key = "verify",
     .to_json = [](const JobSpec& job, ojson& out) { out["verify"] = job.verify; },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.verify = in.value("verify", false);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--mix",
     .value_name = "PCT",
     .help = "for rw and randrw: percent of I/Os that are reads (default 50)",
     .doc = "for rw/randrw: percent of I/Os that are reads",
     .doc_default = "50",
     .default_text = nullptr,  // not given: 50 %
     .parse = [](const std::string& text, JobSpec& job) {
       Result<uint64_t> mix = ParseCount(text, "--mix");
       if (!mix.ok()) return Status::BadInput("--mix: '" + text + "' is outside 0..100 (percent of I/Os that are reads)");
       job.read_mix_pct = static_cast<int>(std::min<uint64_t>(mix.value(), 1000));  // the limit names it
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.read_mix_pct < 0 || job.read_mix_pct > 100)
         return Status::BadInput("--mix: " + std::to_string(job.read_mix_pct) +
                                 " is outside 0..100 (percent of I/Os that are reads)");
       return Status::Ok();
     },
     .json_key = "mix_read_pct",  // only for a pattern that both reads and writes
     .to_json = [](const JobSpec& job, ojson& out) {
       if (DoesReads(job.rw) && DoesWrites(job.rw)) out["mix_read_pct"] = job.read_mix_pct;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.read_mix_pct = in.value("mix_read_pct", 50);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--seed",
     .value_name = "N",
     .help = "reproduce a run: its \"seed\" from --json or `results show` (default: a fresh seed per run; "
             "with --repeat, repeat 1 uses N and each later repeat a seed derived from N)",
     .doc = "reproduce a run: its offsets, read/write mix and data (the `\"seed\"` of its JSON; repeat i of a series "
            "uses a seed derived from N and i). Without it every run and repeat draws a fresh one",
     .doc_default = "fresh",
     .default_text = nullptr,  // not given: a fresh seed per run and repeat
     .parse = [](const std::string& text, JobSpec& job) {
       if (text.empty() || text.size() > 16 || text.find_first_not_of("0123456789") != std::string::npos)
         return Status::BadInput("--seed: '" + text + "' is not a whole number (give the \"seed\" of a stored run)");
       job.seed = std::stoull(text);
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.seed && *job.seed > kMaxSeed)
         return Status::BadInput("--seed: " + std::to_string(*job.seed) +
                                 " is above 9007199254740991 (2^53 - 1, the largest a JSON number keeps exactly)");
       return Status::Ok();
     },
     .json_key = "seed",  // only when there is one
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.seed) out["seed"] = *job.seed;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       if (auto seed = in.find("seed"); seed != in.end() && !seed->is_null()) {
         if (!seed->is_number_unsigned() || seed->get<uint64_t>() > kMaxSeed)
           return Status::BadInput("job.seed: expected a whole number 0..2^53-1, got " + seed->dump());
         job.seed = seed->get<uint64_t>();
       }
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
};

}  // namespace

std::span<const JobOption> JobOptionTable() { return kJobOptions; }

const JobOption* FindJobOption(std::string_view name) {
  for (const JobOption& option : kJobOptions)
    if (name == option.name) return &option;
  return nullptr;
}

Result<uint64_t> ParseCount(const std::string& text, const std::string& option) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return Status::BadInput(option + ": '" + text + "' is not a whole number");
  return std::stoull(text);
}

}  // namespace nasperf
