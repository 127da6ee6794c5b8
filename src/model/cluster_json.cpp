// ClusterToJson / ClusterFromJson.
#include "model/cluster_json.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "model/run_json.h"

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

constexpr int64_t kNicFigureMax = 2147483647;  // wider than any link's Mb/s or any MTU

Result<std::optional<int64_t>> NicFigure(const nlohmann::json& nic, const char* key, const std::string& where) {
  if (!nic.contains(key) || nic.at(key).is_null()) return std::optional<int64_t>();
  const nlohmann::json& v = nic.at(key);
  const std::string bad = where + ": " + key + ": expected a whole number from 0 to 2147483647 or null";
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(kNicFigureMax)) return Status::BadInput(bad);
    return std::optional<int64_t>(static_cast<int64_t>(v.get<uint64_t>()));
  }
  if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > kNicFigureMax) return Status::BadInput(bad);
  return std::optional<int64_t>(v.get<int64_t>());
}

ojson RankToJson(const RankResult& r) {
  ojson j = {{"rank", r.rank}, {"host", r.host}};
  if (r.nic) j["nic"] = RankNicToJson(*r.nic);
  if (r.region) j["region"] = RankRegionToJson(*r.region);
  j["reported"] = r.reported;
  j["start_offset_s"] = r.start_offset_s;
  j["seconds"] = r.seconds;
  j["partial"] = r.partial;
  if (!r.error.empty()) j["error"] = r.error;
  if (DidIo(r.read)) j["read"] = DirectionToJson(*r.read);
  if (DidIo(r.write)) j["write"] = DirectionToJson(*r.write);
  if (r.app_mb_per_s) j["app_mb_per_s"] = *r.app_mb_per_s;
  if (r.seed) j["seed"] = *r.seed;
  if (r.cached) j["cached"] = *r.cached;
  if (!r.cold_read.empty()) j["cold_read"] = r.cold_read;
  return j;
}

}  // namespace

ojson RankNicToJson(const RankNic& nic) {
  ojson j = {{"name", nic.name}};
  j["speed_mbps"] = nic.speed_mbps ? ojson(*nic.speed_mbps) : ojson(nullptr);
  j["mtu"] = nic.mtu ? ojson(*nic.mtu) : ojson(nullptr);
  return j;
}

Result<RankNic> RankNicFromJson(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) return Status::BadInput(where + ": expected an object");
  if (!j.contains("name") || !j.at("name").is_string())
    return Status::BadInput(where + ": name: expected the interface's name");
  RankNic nic;
  nic.name = j.at("name").get<std::string>();
  const bool printable = std::all_of(nic.name.begin(), nic.name.end(), [](char c) { return c > ' ' && c < 127; });
  if (nic.name.empty() || nic.name.size() > 15 || !printable)
    return Status::BadInput(where + ": name: expected 1 to 15 printable characters without spaces");
  Result<std::optional<int64_t>> speed = NicFigure(j, "speed_mbps", where);
  if (!speed.ok()) return speed.status();
  Result<std::optional<int64_t>> mtu = NicFigure(j, "mtu", where);
  if (!mtu.ok()) return mtu.status();
  nic.speed_mbps = speed.value();
  nic.mtu = mtu.value();
  return nic;
}

ojson RankRegionToJson(const RankRegion& region) {
  return {{"offset_bytes", region.offset_bytes}, {"bytes", region.bytes}};
}

Result<RankRegion> RankRegionFromJson(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) return Status::BadInput(where + ": expected an object");
  constexpr uint64_t kMax = INT64_MAX;
  RankRegion region;
  for (auto [key, into] : {std::pair{"offset_bytes", &region.offset_bytes}, std::pair{"bytes", &region.bytes}}) {
    if (!j.contains(key) || !j.at(key).is_number_unsigned() || j.at(key).get<uint64_t>() > kMax)
      return Status::BadInput(where + ": " + key + ": expected a whole number of bytes");
    *into = j.at(key).get<uint64_t>();
  }
  if (region.bytes > kMax - region.offset_bytes) return Status::BadInput(where + ": ends past 2^63 bytes");
  return region;
}

ojson ClusterToJson(const ClusterFacts& f) {
  ojson each = ojson::array();
  for (const RankResult& r : f.each) each.push_back(RankToJson(r));
  return {{"ranks", f.ranks},
          {"stonewall", f.stonewall},
          {"start_skew_us", f.start_skew_us},
          {"window_s", f.window_s},
          {"first_done_s", f.first_done_s},
          {"last_done_s", f.last_done_s},
          {"last_done_mb_per_s", f.last_done_mb_per_s},
          {"spread_pct", f.spread_pct},
          {"spread_flagged", f.spread_flagged},
          {"each", each}};
}

Result<ClusterFacts> ClusterFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::BadInput("cluster: expected an object");
  ClusterFacts f;
  try {
    f.ranks = j.value("ranks", 0);
    f.stonewall = j.value("stonewall", true);
    f.start_skew_us = j.value("start_skew_us", 0.0);
    f.window_s = j.value("window_s", 0.0);
    f.first_done_s = j.value("first_done_s", 0.0);
    f.last_done_s = j.value("last_done_s", 0.0);
    f.last_done_mb_per_s = j.value("last_done_mb_per_s", 0.0);
    f.spread_pct = j.value("spread_pct", 0.0);
    f.spread_flagged = j.value("spread_flagged", false);
    size_t i = 0;
    for (const nlohmann::json& e : j.value("each", nlohmann::json::array())) {
      if (!e.is_object()) return Status::BadInput("cluster.each[" + std::to_string(i) + "]: expected an object");
      RankResult r;
      r.rank = e.value("rank", 0);
      r.host = e.value("host", std::string());
      if (e.contains("nic")) {
        Result<RankNic> nic = RankNicFromJson(e.at("nic"), "cluster.each[" + std::to_string(i) + "].nic");
        if (!nic.ok()) return nic.status();
        r.nic = std::move(nic.value());
      }
      if (e.contains("region")) {
        Result<RankRegion> region =
            RankRegionFromJson(e.at("region"), "cluster.each[" + std::to_string(i) + "].region");
        if (!region.ok()) return region.status();
        r.region = region.value();
      }
      r.reported = e.value("reported", true);
      r.start_offset_s = e.value("start_offset_s", 0.0);
      r.seconds = e.value("seconds", 0.0);
      r.partial = e.value("partial", false);
      r.error = e.value("error", std::string());
      if (e.contains("read")) r.read = DirectionFromJson(e.at("read"));
      if (e.contains("write")) r.write = DirectionFromJson(e.at("write"));
      if (e.contains("app_mb_per_s")) r.app_mb_per_s = e.at("app_mb_per_s").get<double>();
      if (e.contains("seed")) {
        if (!e.at("seed").is_number_unsigned())
          return Status::BadInput("cluster.each[" + std::to_string(i) + "].seed: expected a whole number");
        r.seed = e.at("seed").get<uint64_t>();
      }
      if (e.contains("cached")) r.cached = e.at("cached").get<bool>();
      r.cold_read = e.value("cold_read", std::string());
      f.each.push_back(std::move(r));
      ++i;
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::BadInput(std::string("cluster: ") + e.what());
  }
  if (f.ranks < 0) return Status::BadInput("cluster.ranks: negative");
  return f;
}

}  // namespace nasperf
