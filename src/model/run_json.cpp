// Renders RunResults as the stable JSON document. Fields are added, never renamed.
#include "model/run_json.h"

#include "model/app_json.h"
#include "model/json_fields.h"
#include "model/pacing_json.h"
#include "model/run_extras.h"
#include "model/cluster_json.h"
#include "nasperf/version.h"
#include "stats/confidence.h"
#include "workload/run_seed.h"

namespace nasperf {

using ojson = nlohmann::ordered_json;

ojson DirectionToJson(const DirectionResult& d) {
  return {
      {"bytes", d.bytes},
      {"ios", d.ios},
      {"seconds", d.seconds},
      {"mb_per_s", d.mb_per_s},
      {"iops", d.iops},
      {"errors", d.errors},
      {"lat_us",
       {{"mean", d.lat.mean_us},
        {"p50", d.lat.p50_us},
        {"p90", d.lat.p90_us},
        {"p99", d.lat.p99_us},
        {"p999", d.lat.p999_us},
        {"max", d.lat.max_us}}},
  };
}

namespace {

// The repeats' summary and each repeat's figures (only the directions the run did).
ojson RepeatsToJson(const RunResult& run) {
  RepeatSpread spread = SummariseRepeats(RepeatTotals(run));
  ojson each = ojson::array();
  for (const RepeatFigures& r : run.repeats) each.push_back(RepeatToJson(r, DidIo(run.read), DidIo(run.write)));
  ojson ci = nullptr;
  if (spread.ci95) ci = {{"low", spread.ci95->low}, {"high", spread.ci95->high}};
  ojson out = {{"count", spread.count},         {"statistic", "median"},     {"ci95_mb_per_s", ci},
               {"ci_method", kConfidenceMethod}, {"spread_pct", spread.spread_pct}, {"noisy", spread.noisy},
               {"each", each}};
  // --repeat-until stopped the series because the interval looked narrow: n was not fixed.
  if (run.repeat_until_met == true && spread.ci95) out["ci_after_data_dependent_stop"] = true;
  return out;
}

}  // namespace

ojson RepeatToJson(const RepeatFigures& r, bool read, bool write) {
  ojson e = ojson::object();
  if (read)
    e["read"] = {{"mb_per_s", r.read_mb_per_s}, {"iops", r.read_iops}, {"lat_mean_us", r.read_lat_mean_us},
                 {"lat_p99_us", r.read_lat_p99_us}};
  if (write)
    e["write"] = {{"mb_per_s", r.write_mb_per_s}, {"iops", r.write_iops}, {"lat_mean_us", r.write_lat_mean_us},
                  {"lat_p99_us", r.write_lat_p99_us}};
  e["seconds"] = r.seconds;
  if (r.seed) e["seed"] = r.seed;
  return e;
}

Result<RepeatFigures> RepeatFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::BadInput("expected an object");
  RepeatFigures f;
  // Reads `key` of `o` (under `where`) into *out when present; absent leaves it 0.
  auto number = [](const nlohmann::json& o, const std::string& where, const char* key, double* out) -> Status {
    auto it = o.find(key);
    if (it == o.end()) return Status::Ok();
    if (!it->is_number()) return Status::BadInput(where + key + ": expected a number");
    *out = it->get<double>();
    return Status::Ok();
  };
  struct Direction {
    const char* name;
    double *mb_per_s, *iops, *lat_mean_us, *lat_p99_us;
  };
  for (const Direction& d : {Direction{"read", &f.read_mb_per_s, &f.read_iops, &f.read_lat_mean_us, &f.read_lat_p99_us},
                             Direction{"write", &f.write_mb_per_s, &f.write_iops, &f.write_lat_mean_us,
                                       &f.write_lat_p99_us}}) {
    auto it = j.find(d.name);
    if (it == j.end()) continue;
    if (!it->is_object()) return Status::BadInput(std::string(d.name) + ": expected an object");
    const std::string where = std::string(d.name) + ".";
    for (auto [key, out] : {std::pair{"mb_per_s", d.mb_per_s}, std::pair{"iops", d.iops},
                            std::pair{"lat_mean_us", d.lat_mean_us}, std::pair{"lat_p99_us", d.lat_p99_us}})
      if (Status s = number(*it, where, key, out); !s.ok()) return s;
  }
  if (Status s = number(j, "", "seconds", &f.seconds); !s.ok()) return s;
  // A seed that is not a count is not known (0), as before seeds were kept.
  if (auto seed = j.find("seed"); seed != j.end() && seed->is_number_unsigned()) f.seed = seed->get<uint64_t>();
  return f;
}

ojson DataToJson(const DataFacts& data) {
  ojson j = {{"pattern", data.pattern},
             {"unique_blocks", data.unique_blocks},
             {"compress_ratio", data.compress_ratio},
             {"compress_sample_bytes", data.sample_bytes}};
  if (data.pattern == "zero") j["note"] = kZeroDataNote;
  return j;
}

std::optional<DataFacts> DataFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("pattern") || !j.at("pattern").is_string()) return std::nullopt;
  DataFacts data;
  data.pattern = j.at("pattern").get<std::string>();
  if (auto it = j.find("unique_blocks"); it != j.end() && it->is_boolean()) data.unique_blocks = it->get<bool>();
  if (auto it = j.find("compress_ratio"); it != j.end() && it->is_number()) data.compress_ratio = it->get<double>();
  if (auto it = j.find("compress_sample_bytes"); it != j.end() && it->is_number_unsigned())
    data.sample_bytes = it->get<uint64_t>();
  return data;
}

ojson RunToJson(const RunResult& run) {
  ojson j;
  if (run.id) j["id"] = run.id;
  j["name"] = run.name;
  if (!run.test.empty()) j["test"] = run.test;
  if (!run.job_name.empty()) {
    j["job_name"] = run.job_name;
    j["job_group"] = run.job_group;
  }
  j["target"] = run.target;
  j["partial"] = run.partial;
  if (!run.started_at.empty()) j["started_at"] = run.started_at;
  if (run.source_tool != "nasperf") {
    j["source_tool"] = run.source_tool;
    j["source_file"] = run.source_file;
  }
  j["job"] = JobToJson(run.job, run.engine, run.qd_run);
  // The same seed as job.seed, at the top where readers look: `--seed` with it reruns this
  // run (a repeated run's series; each repeat's own is in repeats.each[].seed).
  if (run.job.seed) j["seed"] = *run.job.seed;
  if (DidIo(run.read)) j["read"] = DirectionToJson(*run.read);
  if (DidIo(run.write)) j["write"] = DirectionToJson(*run.write);
  if (const std::string flush = JobWriteFlush(run); !flush.empty()) j["write_flush"] = flush;
  // A block-size mix ran: each size's figures beside the totals.
  if (!run.per_size.empty()) j["per_size"] = PerSizeToJson(run.per_size);
  j["cpu"] = {{"user_pct", run.cpu.user_pct}, {"sys_pct", run.cpu.sys_pct}};
  ojson samples = ojson::array();
  for (const Sample& s : run.samples)
    samples.push_back({{"t_s", s.t_s}, {"read_mb_per_s", s.read_mb_per_s}, {"write_mb_per_s", s.write_mb_per_s}});
  j["samples"] = samples;
  j["tags"] = run.tags;
  if (!run.error.empty()) j["error"] = run.error;
  if (!run.notes.empty()) j["notes"] = run.notes;
  if (run.verified_bytes) j["verified_bytes"] = *run.verified_bytes;
  if (run.data) j["data"] = DataToJson(*run.data);
  if (!run.command_line.empty()) j["command_line"] = run.command_line;
  if (!run.inventory.empty()) j["inventory"] = run.inventory;
  j["measured_on"] = run.measured_on;
  if (!run.telemetry.is_null()) j["telemetry"] = run.telemetry;
  if (run.cached) j["cached"] = *run.cached;
  j["protocol"] = ProtocolToJson(run.protocol);
  if (run.app) j["app"] = AppToJson(*run.app);
  if (run.pacing)
    j["pacing"] = PacingToJson(*run.pacing, run.job.threads,
                               run.cluster && run.cluster->ranks > 1 ? static_cast<uint32_t>(run.cluster->ranks) : 1);
  if (!run.repeats.empty()) {
    j["repeats_mb_per_s"] = RepeatTotals(run);
    j["repeats"] = RepeatsToJson(run);
  }
  if (run.steady) j["steady"] = SteadyToJson(*run.steady, run.job.steady);
  if (run.repeat_until_met) {
    j["repeat_until"] = {{"ci_pct", run.job.repeat_until_ci_pct},
                         {"met", *run.repeat_until_met},
                         {"repeats", run.repeats.empty() ? size_t{1} : run.repeats.size()}};
    if (run.repeat_until_min_repeats) j["repeat_until"]["min_repeats"] = run.repeat_until_min_repeats;
  }
  if (run.cluster) j["cluster"] = ClusterToJson(*run.cluster);
  return j;
}

ojson ProtocolToJson(const std::optional<ProtocolFacts>& facts) {
  if (!facts) return nullptr;
  ojson options = ojson::object();
  for (const auto& [k, v] : facts->options) options[k] = v;
  return {{"protocol", facts->protocol}, {"version", facts->version}, {"label", facts->label()},
          {"server", facts->server},     {"share", facts->share},     {"options", options}};
}

Result<std::optional<ProtocolFacts>> ProtocolFromJson(const ojson& j) {
  if (j.is_null()) return std::optional<ProtocolFacts>();
  if (!j.is_object()) return Status::BadInput("protocol: expected an object or null, got " + QuotedJson(j));
  auto text = [&](const char* key, bool required, std::string* out) -> Status {
    auto it = j.find(key);
    if (it == j.end() || (!required && it->is_null())) {
      if (required) return Status::BadInput(std::string("protocol.") + key + ": missing");
      return Status::Ok();
    }
    if (!it->is_string())
      return Status::BadInput(std::string("protocol.") + key + ": expected a string, got " + QuotedJson(*it));
    *out = it->get<std::string>();
    if (required && out->empty()) return Status::BadInput(std::string("protocol.") + key + ": empty");
    return Status::Ok();
  };
  ProtocolFacts facts;
  std::string label;
  if (Status s = text("protocol", true, &facts.protocol); !s.ok()) return s;
  if (Status s = text("version", false, &facts.version); !s.ok()) return s;
  if (Status s = text("server", false, &facts.server); !s.ok()) return s;
  if (Status s = text("share", false, &facts.share); !s.ok()) return s;
  if (Status s = text("label", false, &label); !s.ok()) return s;
  if (auto it = j.find("options"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) return Status::BadInput("protocol.options: expected an object, got " + QuotedJson(*it));
    for (const auto& [k, v] : it->items()) {
      if (!v.is_string()) return Status::BadInput("protocol.options." + k + ": expected a string, got " + QuotedJson(v));
      facts.options.emplace_back(k, v.get<std::string>());
    }
  }
  return std::optional<ProtocolFacts>(std::move(facts));
}

ojson DocumentToJson(const std::vector<RunResult>& runs) {
  ojson doc = {{"nasperf", {{"version", NASPERF_VERSION}}}, {"runs", ojson::array()}};
  for (const RunResult& r : runs) doc["runs"].push_back(RunToJson(r));
  return doc;
}

DirectionResult DirectionFromJson(const nlohmann::json& j) {
  DirectionResult d;
  d.bytes = j.value("bytes", uint64_t{0});
  d.ios = j.value("ios", uint64_t{0});
  d.seconds = j.value("seconds", 0.0);
  d.mb_per_s = j.value("mb_per_s", 0.0);
  d.iops = j.value("iops", 0.0);
  d.errors = j.value("errors", uint64_t{0});
  const nlohmann::json lat = j.value("lat_us", nlohmann::json::object());
  d.lat = {lat.value("mean", 0.0), lat.value("p50", 0.0), lat.value("p90", 0.0),
           lat.value("p99", 0.0), lat.value("p999", 0.0), lat.value("max", 0.0)};
  return d;
}

ojson PerSizeToJson(const std::vector<SizeResult>& sizes) {
  ojson out = ojson::array();
  for (const SizeResult& size : sizes) {
    ojson e = {{"bs", size.bs}};
    if (size.read) e["read"] = DirectionToJson(*size.read);
    if (size.write) e["write"] = DirectionToJson(*size.write);
    out.push_back(e);
  }
  return out;
}

Result<std::vector<SizeResult>> PerSizeFromJson(const nlohmann::json& j) {
  // A mix holds at most 16 sizes per direction: 64 leaves room and bounds a hostile file.
  if (!j.is_array() || j.size() > 64) return Status::BadInput("per_size: expected an array of at most 64 sizes");
  std::vector<SizeResult> sizes;
  try {
    for (const nlohmann::json& e : j) {
      if (!e.is_object() || !e.contains("bs") || !e.at("bs").is_number_unsigned())
        return Status::BadInput("per_size: each entry needs a whole \"bs\"");
      SizeResult size;
      size.bs = e.at("bs").get<uint64_t>();
      if (e.contains("read")) size.read = DirectionFromJson(e.at("read"));
      if (e.contains("write")) size.write = DirectionFromJson(e.at("write"));
      sizes.push_back(std::move(size));
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::BadInput(std::string("per_size: ") + e.what());
  }
  return sizes;
}

Result<RunResult> RunFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::BadInput("run: not a JSON object");
  RunResult r;
  try {
    Result<JobSpec> job = JobFromJson(j.at("job"));
    if (!job.ok()) return job.status();
    r.job = job.value();
    r.engine = j.at("job").value("engine", std::string("auto"));
    r.qd_run = QdRunFromJson(j.at("job"));
    r.id = j.value("id", int64_t{0});
    r.name = j.value("name", std::string());
    r.test = j.value("test", std::string());
    r.job_name = j.value("job_name", std::string());
    r.job_group = j.value("job_group", std::string());
    if (auto it = j.find("steady"); it != j.end()) r.steady = SteadyFromJson(*it);
    if (auto it = j.find("repeat_until"); it != j.end() && it->is_object() && it->contains("met") &&
                                           it->at("met").is_boolean()) {
      r.repeat_until_met = it->at("met").get<bool>();
      if (auto m = it->find("min_repeats"); m != it->end() && m->is_number_unsigned() && m->get<uint64_t>() <= 1000)
        r.repeat_until_min_repeats = m->get<uint32_t>();
    }
    r.target = j.value("target", std::string());
    r.partial = j.value("partial", false);
    r.started_at = j.value("started_at", std::string());
    r.source_tool = j.value("source_tool", std::string("nasperf"));
    r.source_file = j.value("source_file", std::string());
    if (j.contains("read")) r.read = DirectionFromJson(j.at("read"));
    if (j.contains("write")) r.write = DirectionFromJson(j.at("write"));
    if (auto sizes = j.find("per_size"); sizes != j.end() && !sizes->is_null()) {
      Result<std::vector<SizeResult>> per_size = PerSizeFromJson(*sizes);
      if (!per_size.ok()) return Status::BadInput("run: " + per_size.status().message());
      r.per_size = std::move(per_size).value();
    }
    const nlohmann::json cpu = j.value("cpu", nlohmann::json::object());
    r.cpu = {cpu.value("user_pct", 0.0), cpu.value("sys_pct", 0.0)};
    for (const nlohmann::json& s : j.value("samples", nlohmann::json::array()))
      r.samples.push_back({s.value("t_s", 0.0), s.value("read_mb_per_s", 0.0), s.value("write_mb_per_s", 0.0)});
    r.tags = j.value("tags", std::map<std::string, std::string>());
    r.error = j.value("error", std::string());
    r.notes = j.value("notes", std::vector<std::string>());
    if (j.contains("verified_bytes") && j["verified_bytes"].is_number_unsigned())
      r.verified_bytes = j["verified_bytes"].get<uint64_t>();
    if (j.contains("data")) r.data = DataFromJson(j.at("data"));
    r.command_line = j.value("command_line", std::string());
    if (j.contains("inventory") && j.at("inventory").is_object()) r.inventory = nlohmann::ordered_json(j.at("inventory"));
    if (j.contains("cached") && j.at("cached").is_boolean()) r.cached = j.at("cached").get<bool>();
    if (j.contains("repeats") && j.at("repeats").is_object()) {
      size_t i = 0;
      for (const nlohmann::json& e : j.at("repeats").value("each", nlohmann::json::array())) {
        Result<RepeatFigures> f = RepeatFromJson(e);
        if (!f.ok())
          return Status::BadInput("run: repeats.each[" + std::to_string(i) + "]: " + f.status().message());
        r.repeats.push_back(f.value());
        ++i;
      }
    }
    r.measured_on = j.value("measured_on", std::string("client"));
    if (j.contains("telemetry")) r.telemetry = nlohmann::ordered_json(j.at("telemetry"));
    if (j.contains("protocol")) {
      Result<std::optional<ProtocolFacts>> facts = ProtocolFromJson(nlohmann::ordered_json(j.at("protocol")));
      if (!facts.ok()) return facts.status();
      r.protocol = std::move(facts).value();
    }
    if (auto app = j.find("app"); app != j.end() && !app->is_null()) {
      Result<AppFigures> figures = AppFromJson(*app);
      if (!figures.ok()) return figures.status();
      r.app = std::move(figures).value();
    }
    if (auto pacing = j.find("pacing"); pacing != j.end() && !pacing->is_null()) {
      Result<PacingFacts> facts = PacingFromJson(*pacing);
      if (!facts.ok()) return Status::BadInput("run: " + facts.status().message());
      r.pacing = std::move(facts).value();
    }
    if (auto cluster = j.find("cluster"); cluster != j.end() && !cluster->is_null()) {
      Result<ClusterFacts> facts = ClusterFromJson(*cluster);
      if (!facts.ok()) return facts.status();
      r.cluster = std::move(facts).value();
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::BadInput(std::string("run: ") + e.what());
  }
  return r;
}

Result<std::vector<RunResult>> DocumentFromJson(const ojson& doc) {
  if (!doc.is_object() || !doc.contains("nasperf") || !doc.contains("runs"))
    return Status::BadInput("not a nasperf result document: expected {\"nasperf\": {...}, \"runs\": [...]}");
  if (!doc.at("runs").is_array()) return Status::BadInput("runs: expected an array, got " + QuotedJson(doc.at("runs")));
  std::vector<RunResult> out;
  size_t i = 0;
  for (const ojson& j : doc.at("runs")) {
    const std::string where = "runs[" + std::to_string(i++) + "]";
    Result<RunResult> run = RunFromJson(nlohmann::json(j));
    if (!run.ok()) return Status::BadInput(where + ": " + run.status().message());
    // RunFromJson reads through an unordered object: read the options again in order.
    if (j.is_object() && j.contains("protocol")) {
      Result<std::optional<ProtocolFacts>> facts = ProtocolFromJson(j.at("protocol"));
      if (!facts.ok()) return Status::BadInput(where + ": " + facts.status().message());
      run.value().protocol = std::move(facts).value();
    }
    out.push_back(std::move(run).value());
  }
  return out;
}

}  // namespace nasperf
