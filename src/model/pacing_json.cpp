// PacingToJson / PacingFromJson: the "pacing" member of a run.
#include "model/pacing_json.h"

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

ojson SummaryToJson(const LatencySummary& s) {
  return {{"mean", s.mean_us}, {"p50", s.p50_us},   {"p90", s.p90_us},
          {"p99", s.p99_us},   {"p999", s.p999_us}, {"max", s.max_us}};
}

Result<LatencySummary> SummaryFromJson(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) return Status::BadInput(where + ": expected an object");
  LatencySummary s;
  for (auto [key, out] : {std::pair{"mean", &s.mean_us}, std::pair{"p50", &s.p50_us}, std::pair{"p90", &s.p90_us},
                          std::pair{"p99", &s.p99_us}, std::pair{"p999", &s.p999_us}, std::pair{"max", &s.max_us}}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_number()) return Status::BadInput(where + "." + key + ": expected a number");
    *out = it->get<double>();
  }
  return s;
}

}  // namespace

ojson PacingToJson(const PacingFacts& f, uint32_t threads, uint32_t ranks) {
  ojson j = ranks > 1 ? ojson{{"rates_are", "job total over all ranks and threads"}, {"ranks", ranks}}
                      : ojson{{"rates_are", "job total over all threads"}};
  j["threads"] = threads;
  const double per_rank = ranks > 1 ? 1.0 / ranks : 1.0;
  const double per_thread = (threads ? 1.0 / threads : 1.0) * per_rank;
  if (f.target_iops > 0) {
    j["target_iops"] = f.target_iops;
    if (ranks > 1) j["per_rank_target_iops"] = f.target_iops * per_rank;
    j["per_thread_target_iops"] = f.target_iops * per_thread;
  }
  if (f.target_mb_per_s > 0) {
    j["target_mb_per_s"] = f.target_mb_per_s;
    if (ranks > 1) j["per_rank_target_mb_per_s"] = f.target_mb_per_s * per_rank;
    j["per_thread_target_mb_per_s"] = f.target_mb_per_s * per_thread;
  }
  j["achieved_iops"] = f.achieved_iops;
  j["achieved_mb_per_s"] = f.achieved_mb_per_s;
  if (f.target_iops <= 0 && f.target_mb_per_s <= 0) {
    j["think"] = "closed loop";
    j["lat_us_from"] = "submit";
  } else {
    j["sustained"] = f.sustained;
    j["shortfall_pct"] = f.shortfall_pct;
    j["excess_pct"] = f.excess_pct;
    j["lat_us_from"] = "intended start";
    j["service_us_from"] = "submit";
  }
  if (f.read_service) j["read_service_us"] = SummaryToJson(*f.read_service);
  if (f.write_service) j["write_service_us"] = SummaryToJson(*f.write_service);
  return j;
}

Result<PacingFacts> PacingFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::BadInput("pacing: expected an object");
  PacingFacts f;
  for (auto [key, out] :
       {std::pair{"target_iops", &f.target_iops}, std::pair{"achieved_iops", &f.achieved_iops},
        std::pair{"target_mb_per_s", &f.target_mb_per_s}, std::pair{"achieved_mb_per_s", &f.achieved_mb_per_s},
        std::pair{"shortfall_pct", &f.shortfall_pct}, std::pair{"excess_pct", &f.excess_pct}}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_number()) return Status::BadInput(std::string("pacing.") + key + ": expected a number");
    *out = it->get<double>();
  }
  if (auto it = j.find("sustained"); it != j.end()) {
    if (!it->is_boolean()) return Status::BadInput("pacing.sustained: expected true or false");
    f.sustained = it->get<bool>();
  }
  for (auto [key, out] :
       {std::pair{"read_service_us", &f.read_service}, std::pair{"write_service_us", &f.write_service}}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    Result<LatencySummary> s = SummaryFromJson(*it, std::string("pacing.") + key);
    if (!s.ok()) return s.status();
    *out = s.value();
  }
  return f;
}

}  // namespace nasperf
