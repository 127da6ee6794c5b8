// AddRunExtras / ReadRunExtras and the steady facts' JSON.
#include "model/run_extras.h"

namespace nasperf {
namespace {

const char* MetricName(SteadyRule::Metric m) {
  switch (m) {
    case SteadyRule::Metric::kIops:
      return "iops";
    case SteadyRule::Metric::kBandwidth:
      return "bw";
    default:
      return "none";
  }
}

}  // namespace

nlohmann::ordered_json SteadyToJson(const SteadyFacts& f, const SteadyRule& rule) {
  return {{"reached", f.reached},
          {"at_s", f.at_s},
          {"mean", f.mean},
          {"spread_pct", f.spread_pct},
          {"metric", MetricName(rule.metric)},
          {"tolerance_pct", rule.tolerance_pct},
          {"window_s", rule.window_s}};
}

std::optional<SteadyFacts> SteadyFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("reached") || !j.at("reached").is_boolean()) return std::nullopt;
  SteadyFacts f;
  f.reached = j.at("reached").get<bool>();
  auto number = [&](const char* key, double* out) {
    if (auto it = j.find(key); it != j.end() && it->is_number()) *out = it->get<double>();
  };
  number("at_s", &f.at_s);
  number("mean", &f.mean);
  number("spread_pct", &f.spread_pct);
  return f;
}

void AddRunExtras(const RunResult& run, nlohmann::ordered_json& job) {
  if (!run.job_name.empty()) job["file_job"] = {{"name", run.job_name}, {"group", run.job_group}};
  if (run.steady) job["steady_facts"] = SteadyToJson(*run.steady, run.job.steady);
  if (run.repeat_until_met) job["repeat_until_met"] = *run.repeat_until_met;
  if (run.repeat_until_min_repeats) job["repeat_until_min_repeats"] = run.repeat_until_min_repeats;
}

void ReadRunExtras(const nlohmann::json& job, RunResult& run) {
  if (!job.is_object()) return;
  if (auto it = job.find("file_job"); it != job.end() && it->is_object()) {
    if (auto n = it->find("name"); n != it->end() && n->is_string()) run.job_name = n->get<std::string>();
    if (auto g = it->find("group"); g != it->end() && g->is_string()) run.job_group = g->get<std::string>();
  }
  if (auto it = job.find("steady_facts"); it != job.end()) run.steady = SteadyFromJson(*it);
  if (auto it = job.find("repeat_until_met"); it != job.end() && it->is_boolean())
    run.repeat_until_met = it->get<bool>();
  if (auto it = job.find("repeat_until_min_repeats"); it != job.end() && it->is_number_unsigned() &&
                                                      it->get<uint64_t>() <= 1000)
    run.repeat_until_min_repeats = it->get<uint32_t>();
}

}  // namespace nasperf
