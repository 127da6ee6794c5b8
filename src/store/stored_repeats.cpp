// repeats_json of the runs table, both directions; see stored_repeats.h.
#include "store/stored_repeats.h"

#include "model/run_json.h"

namespace nasperf {
namespace {

// Schemas 3 to 6 kept each repeat as one flat object ("read_mb_per_s", "write_iops", ...).
RepeatFigures FlatRepeatFromStore(const nlohmann::json& e) {
  auto number = [&](const char* key) {
    auto it = e.find(key);
    return it != e.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  RepeatFigures r;
  r.read_mb_per_s = number("read_mb_per_s");
  r.write_mb_per_s = number("write_mb_per_s");
  r.read_iops = number("read_iops");
  r.write_iops = number("write_iops");
  r.read_lat_mean_us = number("read_lat_mean_us");
  r.write_lat_mean_us = number("write_lat_mean_us");
  r.read_lat_p99_us = number("read_lat_p99_us");
  r.write_lat_p99_us = number("write_lat_p99_us");
  r.seconds = number("seconds");
  if (auto it = e.find("seed"); it != e.end() && it->is_number_unsigned()) r.seed = it->get<uint64_t>();
  return r;
}

}  // namespace

nlohmann::json RepeatsToStore(const std::vector<RepeatFigures>& repeats) {
  nlohmann::json out = nlohmann::json::array();
  for (const RepeatFigures& r : repeats) out.push_back(nlohmann::json(RepeatToJson(r, true, true)));
  return out;
}

std::vector<RepeatFigures> RepeatsFromStore(const nlohmann::json& stored, const RunResult& run) {
  std::vector<RepeatFigures> out;
  if (!stored.is_array()) return out;
  for (const nlohmann::json& e : stored) {
    if (e.is_number()) {
      RepeatFigures r;
      (DidIo(run.write) && !DidIo(run.read) ? r.write_mb_per_s : r.read_mb_per_s) = e.get<double>();
      out.push_back(r);
    } else if (e.is_object() && (e.contains("read_mb_per_s") || e.contains("write_mb_per_s"))) {
      out.push_back(FlatRepeatFromStore(e));
    } else if (Result<RepeatFigures> r = RepeatFromJson(e); r.ok()) {
      out.push_back(r.value());
    }
  }
  return out;
}

}  // namespace nasperf
