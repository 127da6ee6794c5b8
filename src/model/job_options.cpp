// The job option table: each option's name, help, README line, default, parser, limits,
// JSON key and CSV column, side by side.
#include "model/job_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "base/units.h"
#include "stats/confidence.h"
#include "workload/block_size_mix.h"
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

// A mix in JSON: [{"bs": 4096, "pct": 30}, ...], in the mix's order.
ojson MixToJson(const std::vector<BlockSizeShare>& mix) {
  ojson out = ojson::array();
  for (const BlockSizeShare& share : mix) out.push_back({{"bs", share.bytes}, {"pct", share.weight_pct}});
  return out;
}

Status MixFromJson(const nlohmann::json& in, const char* key, std::vector<BlockSizeShare>& mix) {
  mix.clear();
  auto it = in.find(key);
  if (it == in.end() || it->is_null()) return Status::Ok();
  if (!it->is_array() || it->size() > kMaxBlockSizeShares)
    return Status::BadInput(std::string("job.") + key + ": expected an array of at most " +
                            std::to_string(kMaxBlockSizeShares) + " {\"bs\", \"pct\"} objects");
  for (const nlohmann::json& e : *it) {
    const auto bs = e.is_object() ? e.find("bs") : e.end();
    const auto pct = e.is_object() ? e.find("pct") : e.end();
    if (bs == e.end() || pct == e.end() || !bs->is_number_unsigned() || !pct->is_number_unsigned() ||
        pct->get<uint64_t>() > 100)
      return Status::BadInput(std::string("job.") + key + ": each entry needs whole \"bs\" and \"pct\" 0..100");
    mix.push_back({bs->get<uint64_t>(), static_cast<uint32_t>(pct->get<uint64_t>())});
  }
  return Status::Ok();
}

// --bs-read / --bs-write: one direction's own mix (a plain size is a mix of one).
Status ParseDirectionMix(const std::string& text, const char* option, std::vector<BlockSizeShare>& mix) {
  Result<std::vector<BlockSizeShare>> parsed = ParseBlockSizeMix(text, option);
  if (!parsed.ok()) return parsed.status();
  mix = parsed.value();
  if (!mix.empty()) return Status::Ok();
  uint64_t bytes = 0;
  if (Status s = ParseSizeInto(text, option, bytes); !s.ok()) return s;
  mix = {{bytes, 100}};
  return Status::Ok();
}

// The mix a direction runs, as text for the CSV: empty for a job without mixes.
std::string DirectionMixCsv(const JobSpec& job, bool read) {
  if (!HasBlockSizeMix(job) || !(read ? DoesReads(job.rw) : DoesWrites(job.rw))) return "";
  const BlockSizePlan plan = PlanBlockSizes(job);
  return BlockSizeMixText(read ? plan.read : plan.write);
}
// A plain decimal number above 0 and at most `max` ("1500", "2.5"): no sign, exponent,
// inf or nan, so that what a rate means is never a surprise. `what` says its unit.
Status ParseRateInto(const std::string& text, const char* option, const char* what, double max, double& field) {
  const std::string digits = !text.empty() && text.front() == '-' ? text.substr(1) : text;
  const bool plain = !digits.empty() && digits.size() <= 20 &&
                     digits.find_first_not_of("0123456789.") == std::string::npos &&
                     digits.find('.') == digits.rfind('.') && digits.front() != '.' && digits.back() != '.';
  if (!plain) return Status::BadInput(std::string(option) + ": '" + text + "' is not a number of " + what);
  const double value = std::strtod(text.c_str(), nullptr);
  if (!(value > 0)) return Status::BadInput(std::string(option) + ": must be above 0 " + what + ", not " + text);
  if (value > max)
    return Status::BadInput(std::string(option) + ": " + text + " is above the limit of " +
                            fmt::format("{:.0f}", max) + " " + what);
  field = value;
  return Status::Ok();
}

// A pacing rate's limits, for a job however made: finite, and 0 (not paced) or in range.
Status CheckRate(double value, const char* option, double min, double max) {
  if (value == 0) return Status::Ok();
  if (!(value >= min && value <= max))
    return Status::BadInput(std::string(option) + ": " + std::to_string(value) + " is outside " + std::to_string(min) +
                            ".." + std::to_string(max));
  return Status::Ok();
}

constexpr double kMaxRateIops = 1e8;
constexpr double kMaxRateMbPerS = 1e6;  // 1 TB/s
constexpr double kMaxThinkS = 3600;
constexpr uint32_t kMaxBurst = 1000000;

// "2%", "2" or "0.5%": a percentage; nullopt when it is not a finite number.
std::optional<double> ParsePercent(std::string text) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  if (text.empty() || text.size() > 32 || text.find_first_not_of("0123456789.") != std::string::npos)
    return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// --steady METRIC:TOLERANCE%:WINDOW ("iops:2%:30s", "bw:5%:1m").
Status ParseSteady(const std::string& text, JobSpec& job) {
  const std::string usage = "--steady: '" + text + "' is not METRIC:TOLERANCE%:WINDOW (iops:2%:30s or bw:5%:1m)";
  const size_t a = text.find(':');
  const size_t b = a == std::string::npos ? a : text.find(':', a + 1);
  if (b == std::string::npos) return Status::BadInput(usage);
  const std::string metric = text.substr(0, a);
  SteadyRule rule;
  if (metric == "iops")
    rule.metric = SteadyRule::Metric::kIops;
  else if (metric == "bw")
    rule.metric = SteadyRule::Metric::kBandwidth;
  else
    return Status::BadInput("--steady: metric '" + metric + "' is not iops or bw");
  std::optional<double> tolerance = ParsePercent(text.substr(a + 1, b - a - 1));
  if (!tolerance) return Status::BadInput(usage);
  rule.tolerance_pct = *tolerance;
  Result<double> window = ParseDuration(text.substr(b + 1));
  if (!window.ok()) return Status::BadInput("--steady: the window: " + window.status().message());
  rule.window_s = window.value();
  job.steady = rule;
  return Status::Ok();
}

std::string SteadyText(const SteadyRule& rule) {
  if (rule.metric == SteadyRule::Metric::kNone) return "";
  char text[96];
  std::snprintf(text, sizeof text, "%s:%g%%:%gs", rule.metric == SteadyRule::Metric::kIops ? "iops" : "bw",
                rule.tolerance_pct, rule.window_s);
  return text;
}

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
     .value_name = "SIZE|MIX",
     .help = "block size per I/O (default 1m), or a mix in fio's bssplit order: 4k/30:64k/20:1m/50 (% of I/Os)",
     .doc = "bytes per I/O; or a mix SIZE/PCT:SIZE/PCT... (weights in % of I/Os, summing to 100; each I/O draws "
            "its size; results per size as well as total)",
     .doc_default = "1m",
     .default_text = "1m",
     .parse = [](const std::string& text, JobSpec& job) {
       Result<std::vector<BlockSizeShare>> mix = ParseBlockSizeMix(text, "--bs");
       if (!mix.ok()) return mix.status();
       job.bs_split = mix.value();
       if (job.bs_split.empty()) return ParseSizeInto(text, "--bs", job.bs);
       job.bs = 0;  // buffers are sized by the largest size of the mix
       for (const BlockSizeShare& share : job.bs_split) job.bs = std::max(job.bs, share.bytes);
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (Status s = CheckBlockSizeMix(job.bs_split, "--bs"); !s.ok()) return s;
       // bs is settled from the direction mixes too: their faults are theirs to name.
       if (Status s = CheckBlockSizeMix(job.bs_read, "--bs-read"); !s.ok()) return s;
       if (Status s = CheckBlockSizeMix(job.bs_write, "--bs-write"); !s.ok()) return s;
       if (job.bs == 0) return Status::BadInput("--bs: the block size must be at least 1 byte");
       if (job.bs > (1ull << 30))
         return Status::BadInput("--bs: " + FormatSize(job.bs) + " is larger than the 1 GiB limit");
       if (HasBlockSizeMix(job) && job.bs != LargestBlockBytes(job))
         return Status::BadInput("--bs: " + FormatSize(job.bs) + " is not the largest size of the job's mixes (" +
                                 FormatSize(LargestBlockBytes(job)) + ")");
       return Status::Ok();
     },
     .json_key = "bs",  // and "bs_split" for a mix
     .to_json = [](const JobSpec& job, ojson& out) {
       out["bs"] = job.bs;
       if (!job.bs_split.empty()) out["bs_split"] = MixToJson(job.bs_split);
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.bs = in.at("bs").get<uint64_t>();
       return MixFromJson(in, "bs_split", job.bs_split);
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
     .help = "worker threads, each with its own file (default 1; --shared-file: one for all)",
     .doc = "worker threads, each with its own file (or region of a file/device) unless `--shared-file`",
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
    {.name = "--shared-file",
     .value_name = nullptr,
     .help = "every thread does its I/O on one shared file, over the same range (fio's filename= with numjobs)",
     .doc = "every thread does its I/O on one file, over the same `--size` bytes, as fio's clones of a job "
            "with `filename=` do and Iometer's workers on one disk do; without it each thread has its own file "
            "(or region). Not with `--verify` (the threads would overwrite each other's check data)",
     .doc_default = "off",
     .default_text = nullptr,
     .parse = [](const std::string&, JobSpec& job) {
       job.shared_file = true;
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.shared_file && job.verify)
         return Status::BadInput(
             "--shared-file: not with --verify: the threads would overwrite each other's check data");
       return Status::Ok();
     },
     .json_key = "shared_file",  // only when on
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.shared_file) out["shared_file"] = true;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.shared_file = in.value("shared_file", false);
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
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
    {.name = "--buffered",
     .value_name = nullptr,
     .help = "through the page cache: undoes a job file's direct I/O (Iometer's specs run unbuffered)",
     .doc = "through the page cache (not O_DIRECT): for a job file that asks direct I/O, as an Iometer "
            "specification does, on a target that cannot do it",
     .doc_default = "off",
     .default_text = nullptr,
     .parse = [](const std::string&, JobSpec& job) {
       job.direct = false;
       return Status::Ok();
     },
     .validate = nullptr,
     .json_key = "direct",  // the job's one direct I/O setting: --direct writes and reads it
     .to_json = [](const JobSpec&, ojson&) {},
     .from_json = [](const nlohmann::json&, JobSpec&) { return Status::Ok(); },
     .csv_column = nullptr,
     .to_csv = nullptr},
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
       // Its record of what was written is one mark per block of --bs.
       if (job.verify && (HasBlockSizeMix(job) || (job.align && job.align != job.bs)))
         return Status::BadInput("--verify: checks one block size at offsets aligned to it; not with a block-size "
                                 "mix (--bs SIZE/PCT:..., --bs-read, --bs-write) or an --align other than --bs");
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
    {.name = "--bs-read",
     .value_name = "SIZE|MIX",
     .help = "block size or mix of the reads (default: --bs)",
     .doc = "the reads' own block size or mix (as `--bs`)",
     .doc_default = "`--bs`",
     .default_text = nullptr,  // not given: the reads draw from --bs
     .parse = [](const std::string& text, JobSpec& job) { return ParseDirectionMix(text, "--bs-read", job.bs_read); },
     .validate = [](const JobSpec& job, bool) {
       if (Status s = CheckBlockSizeMix(job.bs_read, "--bs-read"); !s.ok()) return s;
       if (!job.bs_read.empty() && !DoesReads(job.rw))
         return Status::BadInput(std::string("--bs-read: --rw ") + ToString(job.rw) + " does no reads");
       return Status::Ok();
     },
     .json_key = "bs_read",  // only when given
     .to_json = [](const JobSpec& job, ojson& out) {
       if (!job.bs_read.empty()) out["bs_read"] = MixToJson(job.bs_read);
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) { return MixFromJson(in, "bs_read", job.bs_read); },
     .csv_column = "bs_read_mix",  // the mix the reads ran, empty without mixes
     .to_csv = [](const JobSpec& job) { return DirectionMixCsv(job, true); }},
    {.name = "--bs-write",
     .value_name = "SIZE|MIX",
     .help = "block size or mix of the writes (default: --bs)",
     .doc = "the writes' own block size or mix (as `--bs`)",
     .doc_default = "`--bs`",
     .default_text = nullptr,  // not given: the writes draw from --bs
     .parse = [](const std::string& text, JobSpec& job) { return ParseDirectionMix(text, "--bs-write", job.bs_write); },
     .validate = [](const JobSpec& job, bool) {
       if (Status s = CheckBlockSizeMix(job.bs_write, "--bs-write"); !s.ok()) return s;
       if (!job.bs_write.empty() && !DoesWrites(job.rw))
         return Status::BadInput(std::string("--bs-write: --rw ") + ToString(job.rw) + " does no writes");
       return Status::Ok();
     },
     .json_key = "bs_write",  // only when given
     .to_json = [](const JobSpec& job, ojson& out) {
       if (!job.bs_write.empty()) out["bs_write"] = MixToJson(job.bs_write);
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) { return MixFromJson(in, "bs_write", job.bs_write); },
     .csv_column = "bs_write_mix",
     .to_csv = [](const JobSpec& job) { return DirectionMixCsv(job, false); }},
    {.name = "--random",
     .value_name = "PCT",
     .help = "percent of I/Os that jump (Iometer's % random); the rest continue from the previous I/O's end",
     .doc = "percent of I/Os that jump to a random offset (Iometer's % random); the others continue where the "
            "previous I/O ended",
     .doc_default = "100 for rand*, else 0",
     .default_text = nullptr,  // not given: from --rw
     .parse = [](const std::string& text, JobSpec& job) {
       Result<uint64_t> pct = ParseCount(text, "--random");
       if (!pct.ok()) return Status::BadInput("--random: '" + text + "' is not a percentage 0..100");
       job.random_pct = static_cast<uint32_t>(std::min<uint64_t>(pct.value(), 1000));  // the limit names it
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.random_pct && *job.random_pct > 100)
         return Status::BadInput("--random: " + std::to_string(*job.random_pct) +
                                 " is outside 0..100 (percent of I/Os that jump)");
       return Status::Ok();
     },
     .json_key = "random_pct",  // only when given
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.random_pct) out["random_pct"] = *job.random_pct;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       if (auto it = in.find("random_pct"); it != in.end() && !it->is_null()) {
         if (!it->is_number_unsigned() || it->get<uint64_t>() > 100)
           return Status::BadInput("job.random_pct: expected a whole number 0..100, got " + it->dump());
         job.random_pct = it->get<uint32_t>();
       }
       return Status::Ok();
     },
     .csv_column = "random_pct",  // what ran: from --rw when not given
     .to_csv = [](const JobSpec& job) { return std::to_string(RandomPct(job)); }},
    {.name = "--dist",
     .value_name = "uniform|zipf:THETA|pareto:H|hotspot:ACCESS%/REGION%",
     .help = "where random I/Os land: uniform (each block once per pass) | zipf:THETA | pareto:H | hotspot:A%/R%",
     .doc = "where random I/Os land: `uniform` visits every block once per pass; `zipf:THETA` (rank k drawn with "
            "weight k^-THETA), `pareto:H` (the hottest H of the blocks take 1-H of the I/Os) and `hotspot:A/R` "
            "(A % of the I/Os in the first R % of the file) draw with repetition",
     .doc_default = "uniform",
     .default_text = "uniform",
     .parse = [](const std::string& text, JobSpec& job) {
       Result<OffsetDistribution> dist = ParseOffsetDistribution(text);
       if (!dist.ok()) return dist.status();
       job.dist = dist.value();
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.dist.kind != OffsetDistribution::Kind::kUniform && RandomPct(job) == 0)
         return Status::BadInput("--dist: " + ToString(job.dist) + " places random I/Os, and --rw " + ToString(job.rw) +
                                 " has none (use randread, randwrite, randrw or --random PCT)");
       return Status::Ok();
     },
     .json_key = "dist",  // only when not uniform
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.dist.kind != OffsetDistribution::Kind::kUniform) out["dist"] = ToString(job.dist);
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       Result<OffsetDistribution> dist = ParseOffsetDistribution(in.value("dist", std::string("uniform")));
       if (!dist.ok()) return Status::BadInput("job.dist: " + dist.status().message());
       job.dist = dist.value();
       return Status::Ok();
     },
     .csv_column = "dist",
     .to_csv = [](const JobSpec& job) { return ToString(job.dist); }},
    {.name = "--align",
     .value_name = "SIZE",
     .help = "offsets are multiples of this (default: the smallest block size)",
     .doc = "offsets are multiples of this; it must divide every block size",
     .doc_default = "the smallest block size",
     .default_text = nullptr,  // not given: the smallest block size
     .parse = [](const std::string& text, JobSpec& job) { return ParseSizeInto(text, "--align", job.align); },
     .validate = [](const JobSpec& job, bool) {
       if (job.align == 0) return Status::Ok();
       if (job.align > (1ull << 30))
         return Status::BadInput("--align: " + FormatSize(job.align) + " is larger than the 1 GiB limit");
       for (uint64_t bytes : PlanBlockSizes(job).sizes)
         if (bytes % job.align != 0)
           return Status::BadInput("--align: " + FormatSize(job.align) + " does not divide the block size " +
                                   FormatSize(bytes));
       return Status::Ok();
     },
     .json_key = "align",  // only when given
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.align) out["align"] = job.align;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.align = in.value("align", uint64_t{0});
       return Status::Ok();
     },
     .csv_column = "align_bytes",  // what ran: the smallest size when not given
     .to_csv = [](const JobSpec& job) { return std::to_string(AlignmentBytes(job)); }},
    {.name = "--rate",
     .value_name = "MB/s",
     .help = "pace the job to this total rate in MB/s (10^6 B/s) over all its threads (each paces MB/s / threads); "
             "latency is timed from each I/O's intended start",
     .doc = "pace the job to this rate in MB/s (10^6 B/s): the job's total over all its threads (each paces "
            "1/threads of it). Every I/O has an intended start on the schedule, which is never reset; latency is "
            "timed from it and service time from the submit, and the result says whether the rate was sustained",
     .doc_default = "not paced",
     .default_text = nullptr,  // not given: not paced
     .parse = [](const std::string& text, JobSpec& job) {
       return ParseRateInto(text, "--rate", "MB/s (10^6 B/s)", kMaxRateMbPerS, job.pacing.rate_mb_per_s);
     },
     .validate = [](const JobSpec& job, bool) {
       return CheckRate(job.pacing.rate_mb_per_s, "--rate", 1e-6, kMaxRateMbPerS);
     },
     .json_key = "rate_mb_per_s",  // only when paced by bytes
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.pacing.rate_mb_per_s > 0) out["rate_mb_per_s"] = job.pacing.rate_mb_per_s;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.pacing.rate_mb_per_s = in.value("rate_mb_per_s", 0.0);
       return Status::Ok();
     },
     .csv_column = "rate_mb_per_s",
     .to_csv = [](const JobSpec& job) { return fmt::format("{:.10g}", job.pacing.rate_mb_per_s); }},
    {.name = "--rate-iops",
     .value_name = "N",
     .help = "pace the job to N I/Os per second in total over all its threads (each paces N / threads); "
             "latency is timed from each I/O's intended start",
     .doc = "pace the job to N I/Os per second: the job's total over all its threads (each paces N/threads), "
            "scheduled and reported like `--rate`; not with `--rate`",
     .doc_default = "not paced",
     .default_text = nullptr,  // not given: not paced
     .parse = [](const std::string& text, JobSpec& job) {
       return ParseRateInto(text, "--rate-iops", "I/Os per second", kMaxRateIops, job.pacing.rate_iops);
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.pacing.rate_iops > 0 && job.pacing.rate_mb_per_s > 0)
         return Status::BadInput("--rate-iops: give --rate (MB/s) or --rate-iops, not both");
       return CheckRate(job.pacing.rate_iops, "--rate-iops", 1e-3, kMaxRateIops);
     },
     .json_key = "rate_iops",  // only when paced by I/Os
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.pacing.rate_iops > 0) out["rate_iops"] = job.pacing.rate_iops;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.pacing.rate_iops = in.value("rate_iops", 0.0);
       return Status::Ok();
     },
     .csv_column = "rate_iops",
     .to_csv = [](const JobSpec& job) { return fmt::format("{:.10g}", job.pacing.rate_iops); }},
    {.name = "--think",
     .value_name = "TIME",
     .help = "after every --burst I/Os of each thread have completed, idle this long (fio's thinktime, Iometer's "
             "transfer delay; a closed loop): 10ms, 500us",
     .doc = "a closed loop, as fio's thinktime and Iometer's transfer delay: after every `--burst` I/Os a thread "
            "issues nothing until they have all completed, then idles TIME, so each burst takes its service time "
            "plus TIME and the rate it gives is measured, not scheduled. Beside `--rate` the schedule stays open "
            "loop and a think puts the thread behind it. Units `us`, `ms`, `s`",
     .doc_default = "none",
     .default_text = nullptr,  // not given: no think time
     .parse = [](const std::string& text, JobSpec& job) {
       // Microseconds too: fio's thinktime is in them.
       const bool us = text.size() > 2 && text.compare(text.size() - 2, 2, "us") == 0;
       double seconds = 0;
       if (Status s = ParseDurationInto(us ? text.substr(0, text.size() - 2) : text, "--think", seconds); !s.ok())
         return s;
       if (us) seconds /= 1e6;
       if (!(seconds > 0)) return Status::BadInput("--think: must be above 0, not " + text);
       if (seconds > kMaxThinkS) return Status::BadInput("--think: " + text + " is longer than the limit of 1 h");
       job.pacing.think_s = seconds;
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (!(job.pacing.think_s >= 0 && job.pacing.think_s <= kMaxThinkS))
         return Status::BadInput("--think: must be 0 to 1 h");
       return Status::Ok();
     },
     .json_key = "think_s",  // only with think time
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.pacing.think_s > 0) out["think_s"] = job.pacing.think_s;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.pacing.think_s = in.value("think_s", 0.0);
       return Status::Ok();
     },
     .csv_column = "think_s",
     .to_csv = [](const JobSpec& job) { return fmt::format("{:.10g}", job.pacing.think_s); }},
    {.name = "--burst",
     .value_name = "N",
     .help = "I/Os per burst before each --think (Iometer's burst length, fio's thinktime_blocks; default 1)",
     .doc = "I/Os of each thread between `--think` pauses (Iometer's burst length, fio's thinktime_blocks); "
            "needs `--think`",
     .doc_default = "1",
     .default_text = "1",
     .parse = [](const std::string& text, JobSpec& job) { return ParseCountInto(text, "--burst", job.pacing.burst); },
     .validate = [](const JobSpec& job, bool) {
       if (job.pacing.burst == 0 || job.pacing.burst > kMaxBurst)
         return Status::BadInput("--burst: must be 1.." + std::to_string(kMaxBurst) + " I/Os");
       if (job.pacing.burst > 1 && job.pacing.think_s <= 0)
         return Status::BadInput("--burst: " + std::to_string(job.pacing.burst) +
                                 " I/Os between pauses, but no --think gives the pause");
       return Status::Ok();
     },
     .json_key = "burst",  // only with think time
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.pacing.think_s > 0) out["burst"] = job.pacing.burst;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.pacing.burst = in.value("burst", 1u);
       return Status::Ok();
     },
     .csv_column = "burst",
     .to_csv = [](const JobSpec& job) { return std::to_string(job.pacing.burst); }},
    {.name = "--steady",
     .value_name = "METRIC:TOL%:WINDOW",
     .help = "stop once the last WINDOW of per-second iops or bw lies within TOL % of its mean (e.g. iops:2%:30s; "
             "needs --time, the longest it may take)",
     .doc = "stop a time-based run once the last WINDOW of per-second figures (`iops` or `bw`, MB/s) lies within "
            "TOL % of their mean (fio's steadystate); the result says when, or \"not steady\" when --time ended first",
     .doc_default = "off",
     .default_text = nullptr,  // not given: no rule
     .parse = ParseSteady,
     .validate = [](const JobSpec& job, bool) {
       const SteadyRule& r = job.steady;
       if (r.metric == SteadyRule::Metric::kNone) return Status::Ok();
       if (!(r.tolerance_pct > 0) || r.tolerance_pct > 100)
         return Status::BadInput("--steady: the tolerance must be above 0 and at most 100 %");
       if (!(r.window_s >= 2) || r.window_s > kMaxSeconds)
         return Status::BadInput("--steady: the window must be at least 2s (two per-second figures)");
       if (job.time_s <= 0)
         return Status::BadInput("--steady: needs --time, the longest the run may take to settle");
       if (r.window_s > job.time_s)
         return Status::BadInput("--steady: the window " + SteadyText(r) + " is longer than --time; it could never hold");
       return Status::Ok();
     },
     .json_key = "steady",  // only when asked
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.steady.metric != SteadyRule::Metric::kNone) out["steady"] = SteadyText(job.steady);
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       if (auto it = in.find("steady"); it != in.end() && !it->is_null()) {
         if (!it->is_string()) return Status::BadInput("job.steady: expected a text like \"iops:2%:30s\"");
         return ParseSteady(it->get<std::string>(), job);
       }
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--repeat-until",
     .value_name = "CI%",
     .help = "repeat until the 95 % interval's half-width is under CI % of the median, checked from 5 repeats on "
             "(--repeat is the cap, 5 or more; default cap 10)",
     .doc = "repeat until the 95 % confidence interval's half-width (Student t) is under CI % of the median "
            "repeat, checked from 5 repeats on; `--repeat N` is then the cap (5 or more; default 10); the result "
            "says whether it got there and after how many repeats, and labels the interval of a stopped series as "
            "a fixed-n formula after a data-dependent stop",
     .doc_default = "off",
     .default_text = nullptr,  // not given: exactly --repeat repeats
     .parse = [](const std::string& text, JobSpec& job) {
       std::optional<double> pct = ParsePercent(text);
       if (!pct) return Status::BadInput("--repeat-until: '" + text + "' is not a percentage (5%)");
       job.repeat_until_ci_pct = *pct;
       return Status::Ok();
     },
     .validate = [](const JobSpec& job, bool) {
       if (job.repeat_until_ci_pct == 0) return Status::Ok();
       if (!(job.repeat_until_ci_pct > 0) || job.repeat_until_ci_pct > 100)
         return Status::BadInput("--repeat-until: must be above 0 and at most 100 %");
       if (job.repeat < kRepeatUntilMinRepeats)
         return Status::BadInput(fmt::format(
             "--repeat-until: stops no earlier than {} repeats (a narrow-looking interval of fewer is too often "
             "chance); --repeat {} is the cap: give --repeat {} or more",
             kRepeatUntilMinRepeats, job.repeat, kRepeatUntilMinRepeats));
       return Status::Ok();
     },
     .json_key = "repeat_until_ci_pct",  // only when asked
     .to_json = [](const JobSpec& job, ojson& out) {
       if (job.repeat_until_ci_pct > 0) out["repeat_until_ci_pct"] = job.repeat_until_ci_pct;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       if (auto it = in.find("repeat_until_ci_pct"); it != in.end() && !it->is_null()) {
         if (!it->is_number() || !(it->get<double>() >= 0))
           return Status::BadInput("job.repeat_until_ci_pct: expected a percentage");
         job.repeat_until_ci_pct = it->get<double>();
       }
       return Status::Ok();
     },
     .csv_column = nullptr,
     .to_csv = nullptr},
    {.name = "--stonewall",
     .value_name = "on|off",
     .help = "under mpirun: stop every rank when the first finishes (on), or let each run its own time (off)",
     .doc = "many clients (`mpirun -n N nasperf run`): on, every rank stops when the first finishes, so the total "
            "covers the time all ran; off, each rank runs its whole job and the total sums each rank's rate over "
            "its own time (the result says which)",
     .doc_default = "on",
     .default_text = "on",
     .parse = [](const std::string& text, JobSpec& job) {
       if (text != "on" && text != "off")
         return Status::BadInput("--stonewall: '" + text + "' is neither on nor off");
       job.stonewall = text == "on";
       return Status::Ok();
     },
     .validate = nullptr,
     .json_key = "stonewall",  // only when off: every other job keeps its document
     .to_json = [](const JobSpec& job, ojson& out) {
       if (!job.stonewall) out["stonewall"] = false;
     },
     .from_json = [](const nlohmann::json& in, JobSpec& job) {
       job.stonewall = in.value("stonewall", true);
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
