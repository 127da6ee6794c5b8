// A many-clients run's "cluster" member (RunResult::cluster): the rank count, the start
// skew, the stonewall window, first- and last-done figures, the spread and each rank.
#pragma once

#include <nlohmann/json.hpp>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

// {"ranks", "stonewall", "start_skew_us", "window_s", "first_done_s", "last_done_s",
//  "last_done_mb_per_s", "spread_pct", "spread_flagged",
//  "each": [{"rank", "host", "nic" (RankNicToJson, when known), "region" (RankRegionToJson,
//            ranks sharing one file or device), "reported", "start_offset_s",
//            "seconds", "partial", "error" (when any), "read"/"write" (DirectionToJson, when
//            it did I/O), "seed", "cached", "cold_read" (its own seed and cold-read check,
//            when it had them)}]}
nlohmann::ordered_json ClusterToJson(const ClusterFacts& facts);
// Reads what ClusterToJson wrote; BadInput naming the member ("cluster.each[2].rank: ...").
Result<ClusterFacts> ClusterFromJson(const nlohmann::json& j);

// {"name", "speed_mbps", "mtu"}; an unknown speed or MTU is null.
nlohmann::ordered_json RankNicToJson(const RankNic& nic);
// Reads what RankNicToJson wrote (absent figures are unknown too). BadInput naming `where`
// ("cluster.each[1].nic: mtu: ...") for anything else: a name that is not 1-15 printable
// characters without spaces (a Linux interface name), a figure that is not a whole number
// from 0 to 2^31 - 1.
Result<RankNic> RankNicFromJson(const nlohmann::json& j, const std::string& where);

// {"offset_bytes", "bytes"}: a rank's region of a shared file or device.
nlohmann::ordered_json RankRegionToJson(const RankRegion& region);
// BadInput naming `where` unless both are whole numbers from 0 to 2^63 - 1 whose sum fits.
Result<RankRegion> RankRegionFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace nasperf
