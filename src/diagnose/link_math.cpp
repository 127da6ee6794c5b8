// PathLineRateMbps, PathMtu, PayloadMaxMbPerS, LinkLabel: the link's arithmetic.
#include "diagnose/link_math.h"

#include <fmt/format.h>

#include <algorithm>

namespace nasperf::diagnose {
namespace {

// The lower of two optional values, or the one that is known.
std::optional<int64_t> Lower(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

std::optional<int64_t> NicValue(const HostEvidence& h, std::optional<int64_t> NicFacts::*field) {
  if (!h.nic) return std::nullopt;
  std::optional<int64_t> v = (*h.nic).*field;
  if (v && *v <= 0) return std::nullopt;  // sysfs says -1 when the link is down or unknown
  return v;
}

}  // namespace

std::optional<int64_t> PathLineRateMbps(const Evidence& e) {
  if (e.stated_line_rate_mbps && *e.stated_line_rate_mbps > 0) return e.stated_line_rate_mbps;
  return Lower(NicValue(e.client, &NicFacts::speed_mbps), NicValue(e.nas, &NicFacts::speed_mbps));
}

std::optional<int64_t> PathMtu(const Evidence& e) {
  return Lower(NicValue(e.client, &NicFacts::mtu), NicValue(e.nas, &NicFacts::mtu));
}

double LineRateMbPerS(int64_t mbps) { return static_cast<double>(mbps) / 8.0; }

std::optional<double> PayloadMaxMbPerS(int64_t mbps, int64_t mtu) {
  if (mtu <= kHeaderBytes) return std::nullopt;
  return LineRateMbPerS(mbps) * static_cast<double>(mtu - kHeaderBytes) / static_cast<double>(mtu + kWireOverheadBytes);
}

std::string LinkLabel(int64_t mbps) {
  if (mbps >= 1000) return fmt::format("{:g} GbE", static_cast<double>(mbps) / 1000.0);
  return fmt::format("{} Mbit/s", mbps);
}

}  // namespace nasperf::diagnose
