// JobSpec names and parsing of its enumerations (its checks: model/job_validate.cpp).
#include "nasperf/job.h"

#include <array>
#include <utility>

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
