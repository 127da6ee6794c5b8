// The names and parsers of include/nasperf/job.h's enumerations, defined at the bottom of
// the build so that every layer that reads a JobSpec links them (its checks:
// model/job_validate.h; the engine "auto" becomes: engine/local_engines.h).
#include "nasperf/job.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <utility>

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

namespace {

// "1.25" -> 1.25, the whole text or nothing; locale-independent.
std::optional<double> ParseNumber(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The shortest text that reads back as `value` (so a stored job's --dist reruns exactly).
std::string ShortestText(double value) {
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

}  // namespace

std::string ToString(const OffsetDistribution& dist) {
  switch (dist.kind) {
    case OffsetDistribution::Kind::kUniform: return "uniform";
    case OffsetDistribution::Kind::kZipf: return "zipf:" + ShortestText(dist.theta);
    case OffsetDistribution::Kind::kPareto: return "pareto:" + ShortestText(dist.theta);
    case OffsetDistribution::Kind::kHotspot:
      return "hotspot:" + ShortestText(dist.access_pct) + "/" + ShortestText(dist.region_pct);
  }
  return "?";
}

Result<OffsetDistribution> ParseOffsetDistribution(const std::string& text) {
  const std::string quoted = "--dist: '" + text.substr(0, 64) + "'";
  OffsetDistribution dist;
  if (text == "uniform") return dist;
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string_view value =
      colon == std::string::npos ? std::string_view() : std::string_view(text).substr(colon + 1);
  if (kind == "zipf") {
    // Above 10 nearly every I/O lands on one block: no longer a distribution worth the name.
    std::optional<double> theta = ParseNumber(value);
    if (!theta || !(*theta > 0) || *theta > 10)
      return Status::BadInput(quoted + ": THETA in zipf:THETA must be a number above 0 and at most 10 (e.g. zipf:1.2)");
    dist.kind = OffsetDistribution::Kind::kZipf;
    dist.theta = *theta;
    return dist;
  }
  if (kind == "pareto") {
    std::optional<double> h = ParseNumber(value);
    if (!h || !(*h > 0) || !(*h < 1))
      return Status::BadInput(quoted + ": H in pareto:H must be a number between 0 and 1 (e.g. pareto:0.2)");
    dist.kind = OffsetDistribution::Kind::kPareto;
    dist.theta = *h;
    return dist;
  }
  if (kind == "hotspot") {
    auto pct = [](std::string_view part) -> std::optional<double> {
      if (!part.empty() && part.back() == '%') part.remove_suffix(1);
      return ParseNumber(part);
    };
    const size_t slash = value.find('/');
    std::optional<double> access = slash == std::string_view::npos ? std::nullopt : pct(value.substr(0, slash));
    std::optional<double> region = slash == std::string_view::npos ? std::nullopt : pct(value.substr(slash + 1));
    if (!access || !region || !(*access >= 0) || *access > 100 || !(*region > 0) || !(*region < 100))
      return Status::BadInput(quoted + ": hotspot:ACCESS%/REGION% needs ACCESS 0..100 and REGION above 0 and "
                                       "below 100 (e.g. hotspot:80/20)");
    dist.kind = OffsetDistribution::Kind::kHotspot;
    dist.access_pct = *access;
    dist.region_pct = *region;
    return dist;
  }
  return Status::BadInput(quoted + " is not one of uniform, zipf:THETA, pareto:H, hotspot:ACCESS%/REGION%");
}

std::string SuiteTestLabel(bool random, uint64_t bs, uint32_t qd, uint32_t threads) {
  std::string size = bs % (1 << 20) == 0 ? std::to_string(bs >> 20) + "M" : std::to_string(bs >> 10) + "K";
  return std::string(random ? "RND" : "SEQ") + size + " Q" + std::to_string(qd) + "T" + std::to_string(threads);
}

}  // namespace nasperf
