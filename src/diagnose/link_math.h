// The path's line rate and the TCP payload maximum for its MTU, and a link's short name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/diagnosis.h"

namespace nasperf::diagnose {

// Bytes of a frame on the wire beyond the MTU: Ethernet header 14, FCS 4, preamble and
// start delimiter 8, inter-frame gap 12.
inline constexpr int64_t kWireOverheadBytes = 38;
// Bytes of the MTU that are not TCP payload: IPv4 20, TCP 20, timestamps option 12.
inline constexpr int64_t kHeaderBytes = 52;

// The line rate the user stated (--line-rate), else the lower negotiated NIC speed of the
// two ends (Mbit/s); one end's when only one is known.
std::optional<int64_t> PathLineRateMbps(const Evidence& e);
// The lower MTU of the two ends; one end's when only one is known.
std::optional<int64_t> PathMtu(const Evidence& e);
// Mbit/s / 8 = MB/s.
double LineRateMbPerS(int64_t mbps);
// The TCP payload ceiling: line rate * (MTU - 52) / (MTU + 38). nullopt for an MTU <= 52.
std::optional<double> PayloadMaxMbPerS(int64_t mbps, int64_t mtu);
// "1 GbE", "2.5 GbE", "100 Mbit/s".
std::string LinkLabel(int64_t mbps);

}  // namespace nasperf::diagnose
