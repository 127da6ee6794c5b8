// JobSpec names, parsing of its enumerations, and the checks that need no target.
#include "nasperf/job.h"

#include <array>
#include <utility>

#include "base/units.h"
#include "nasperf/engine.h"

namespace nasperf {
namespace {

constexpr std::array<std::pair<AccessPattern, const char*>, 6> kPatternNames = {{
    {AccessPattern::kRead, "read"},
    {AccessPattern::kWrite, "write"},
    {AccessPattern::kRandRead, "randread"},
    {AccessPattern::kRandWrite, "randwrite"},
    {AccessPattern::kReadWrite, "rw"},
    {AccessPattern::kRandReadWrite, "randrw"},
}};

}  // namespace

const char* ToString(AccessPattern rw) {
  for (const auto& [value, name] : kPatternNames)
    if (value == rw) return name;
  return "?";
}

std::optional<AccessPattern> ParseAccessPattern(const std::string& text) {
  for (const auto& [value, name] : kPatternNames)
    if (text == name) return value;
  return std::nullopt;
}

bool IsRandom(AccessPattern rw) {
  return rw == AccessPattern::kRandRead || rw == AccessPattern::kRandWrite || rw == AccessPattern::kRandReadWrite;
}
bool DoesReads(AccessPattern rw) {
  return rw != AccessPattern::kWrite && rw != AccessPattern::kRandWrite;
}
bool DoesWrites(AccessPattern rw) {
  return rw != AccessPattern::kRead && rw != AccessPattern::kRandRead;
}

std::string ToString(const BufferPattern& pattern) {
  switch (pattern.kind) {
    case BufferPattern::Kind::kRandom: return "random";
    case BufferPattern::Kind::kZero: return "zero";
    case BufferPattern::Kind::kCompressible: return "compressible:" + std::to_string(pattern.compressible_pct);
  }
  return "?";
}

Result<BufferPattern> ParseBufferPattern(const std::string& text) {
  BufferPattern pattern;
  if (text == "random") return pattern;
  if (text == "zero") {
    pattern.kind = BufferPattern::Kind::kZero;
    return pattern;
  }
  const std::string prefix = "compressible:";
  if (text.rfind(prefix, 0) == 0) {
    std::string pct = text.substr(prefix.size());
    bool digits = !pct.empty() && pct.size() <= 3 && pct.find_first_not_of("0123456789") == std::string::npos;
    if (digits && std::stoi(pct) <= 100) {
      pattern.kind = BufferPattern::Kind::kCompressible;
      pattern.compressible_pct = std::stoi(pct);
      return pattern;
    }
    return Status::BadInput("--pattern: '" + text + "': N in compressible:N must be a percentage 0..100");
  }
  return Status::BadInput("--pattern: '" + text + "' is not one of random, zero, compressible:N");
}

Status JobSpec::Validate() const {
  if (Status s = ValidateLimits(true); !s.ok()) return s;
  if (engine != "auto" && engine != "psync" && engine != "io_uring" && engine != "null")
    return Status::BadInput("--engine: '" + engine + "' is not one of psync, io_uring, auto");
  return Status::Ok();
}

Status JobSpec::ValidateLimits(bool has_file) const {
  if (bs == 0) return Status::BadInput("--bs: the block size must be at least 1 byte");
  if (bs > (1ull << 30)) return Status::BadInput("--bs: " + FormatSize(bs) + " is larger than the 1 GiB limit");
  if (qd == 0) return Status::BadInput("--qd: the queue depth must be at least 1");
  if (qd > 65536) return Status::BadInput("--qd: " + std::to_string(qd) + " is larger than the limit of 65536");
  if (threads == 0) return Status::BadInput("--threads: at least one thread is needed");
  if (threads > 1024) return Status::BadInput("--threads: " + std::to_string(threads) + " is larger than the limit of 1024");
  if (read_mix_pct < 0 || read_mix_pct > 100)
    return Status::BadInput("--mix: " + std::to_string(read_mix_pct) + " is outside 0..100 (percent of I/Os that are reads)");
  if (has_file && size == 0) return Status::BadInput("--size: the size must be at least one block");
  if (has_file && size < bs)
    return Status::BadInput("--size: " + FormatSize(size) + " is smaller than the block size " + FormatSize(bs));
  if (static_cast<double>(size) * threads > 1e18) return Status::BadInput("--size: absurdly large");
  if (!(time_s >= 0) || time_s > 365.0 * 24 * 3600) return Status::BadInput("--time: must be 0 to 365 days");
  if (time_based && time_s <= 0) return Status::BadInput("--time: a time-based job needs a duration above 0");
  if (!(ramp_s >= 0) || ramp_s > 365.0 * 24 * 3600) return Status::BadInput("--ramp: must be 0 to 365 days");
  if (repeat == 0 || repeat > 1000) return Status::BadInput("--repeat: must be 1..1000");
  if (seed && *seed > (uint64_t{1} << 53) - 1)
    return Status::BadInput("--seed: " + std::to_string(*seed) +
                            " is above 9007199254740991 (2^53 - 1, the largest a JSON number keeps exactly)");
  if (verify && !DoesWrites(rw))
    return Status::BadInput(std::string("--verify: checks the data a job writes, and --rw ") + ToString(rw) +
                            " writes nothing (use write, randwrite, rw or randrw)");
  if (verify && bs % 8 != 0) return Status::BadInput("--verify: the block size must be a multiple of 8 bytes");
  if (static_cast<uint64_t>(qd) * bs > (4ull << 30))
    return Status::BadInput("--qd x --bs: " + FormatSize(qd * bs) + " of buffers per thread is more than the 4 GiB limit");
  return Status::Ok();
}

std::string SuiteTestLabel(bool random, uint64_t bs, uint32_t qd, uint32_t threads) {
  std::string size = bs % (1 << 20) == 0 ? std::to_string(bs >> 20) + "M" : std::to_string(bs >> 10) + "K";
  return std::string(random ? "RND" : "SEQ") + size + " Q" + std::to_string(qd) + "T" + std::to_string(threads);
}

std::string ResolveEngineName(const JobSpec& job, bool is_null_target) {
  if (is_null_target) return "null";
  if (job.engine != "auto") return job.engine;
  return job.qd > 1 && IoUringAvailable() ? "io_uring" : "psync";
}

}  // namespace nasperf
