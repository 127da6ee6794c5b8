// The waterfall: each layer's measured ceiling as MB/s, % of the path's line rate and % of
// the TCP payload maximum for its MTU, figures a cache served marked and left out, and the
// layer that caps the end-to-end figure. The rules read it beside the evidence.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diagnose/raid_expectation.h"
#include "model/diagnosis.h"

namespace nasperf::diagnose {

inline constexpr const char* kLayerClient = "client";
inline constexpr const char* kLayerDisks = "NAS disks";
inline constexpr const char* kLayerVolume = "NAS volume";
inline constexpr const char* kLayerNetwork = "network";
inline constexpr const char* kLayerProtocol = "protocol";
// Layers only causes name (no row of their own).
inline constexpr const char* kLayerNasCpu = "NAS CPU";
inline constexpr const char* kLayerClientCpu = "client CPU";

// One direction's uncached ceilings along the path (nullopt: not measured, or cached).
struct PathCeilings {
  std::optional<double> client;    // null: through the same engine
  std::optional<double> disks;     // expected from the members (reads only)
  std::optional<double> volume;    // run --on, 1M sequential
  std::optional<double> network;   // the better of 1 and 4 streams (down for reads, up for writes)
  std::optional<double> protocol;  // the target, 1M sequential
  // The lowest of client, disks, volume and network, and its layer ("" when none is known).
  std::optional<double> lowest_below;
  std::string lowest_below_layer;
};

struct Waterfall {
  std::optional<int64_t> line_rate_mbps;
  bool line_rate_stated = false;  // from --line-rate, not the NICs
  std::optional<double> line_rate_mb_per_s;
  std::optional<int64_t> path_mtu;
  std::optional<double> payload_max_mb_per_s;
  std::optional<RaidExpectation> disks;
  PathCeilings read, write;
  // The protocol's best uncached sequential figure and its direction.
  std::optional<double> end_to_end_mb_per_s;
  bool end_to_end_is_read = true;
  std::vector<WaterfallRow> rows;
  // The lowest uncached ceiling on the end-to-end path: a layer beneath the protocol, or
  // the protocol itself when it reaches less than kProtocolShortRatio of that layer while
  // the network and the NAS's storage were both measured. "" when it cannot be told.
  std::string cap_layer;
  std::optional<double> cap_mb_per_s;

  const PathCeilings& end_to_end_path() const { return end_to_end_is_read ? read : write; }
  // The share of the line rate, when it is known.
  std::optional<double> PctOfLine(double mb_per_s) const;
  // "1 GbE", or "1 GbE (stated)" when the user stated it; needs line_rate_mbps.
  std::string LineLabel() const;
};

Waterfall BuildWaterfall(const Evidence& e);

}  // namespace nasperf::diagnose
