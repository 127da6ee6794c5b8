// Renders RunResults as the stable JSON document. Fields are added, never renamed.
#include "report/json_report.h"

#include "nasperf/version.h"
#include "stats/confidence.h"

namespace nasperf {
namespace {

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

// The repeats' summary and each repeat's figures (only the directions the run did).
ojson RepeatsToJson(const RunResult& run) {
  RepeatSpread spread = SummariseRepeats(RepeatTotals(run));
  ojson each = ojson::array();
  for (const RepeatFigures& r : run.repeats) {
    ojson e;
    if (DidIo(run.read))
      e["read"] = {{"mb_per_s", r.read_mb_per_s}, {"iops", r.read_iops}, {"lat_mean_us", r.read_lat_mean_us},
                   {"lat_p99_us", r.read_lat_p99_us}};
    if (DidIo(run.write))
      e["write"] = {{"mb_per_s", r.write_mb_per_s}, {"iops", r.write_iops}, {"lat_mean_us", r.write_lat_mean_us},
                    {"lat_p99_us", r.write_lat_p99_us}};
    e["seconds"] = r.seconds;
    each.push_back(e);
  }
  ojson ci = nullptr;
  if (spread.ci95) ci = {{"low", spread.ci95->low}, {"high", spread.ci95->high}};
  return {{"count", spread.count},         {"statistic", "median"},     {"ci95_mb_per_s", ci},
          {"ci_method", kConfidenceMethod}, {"spread_pct", spread.spread_pct}, {"noisy", spread.noisy},
          {"each", each}};
}

}  // namespace

ojson JobToJson(const JobSpec& job, const std::string& engine) {
  ojson j = {
      {"rw", ToString(job.rw)},   {"bs", job.bs},         {"qd", job.qd},
      {"threads", job.threads},   {"size", job.size},     {"time_s", job.time_s},
      {"time_based", job.time_based}, {"ramp_s", job.ramp_s}, {"direct", job.direct},
      {"fsync", job.fsync},       {"engine", engine},     {"pattern", ToString(job.pattern)},
      {"repeat", job.repeat},
  };
  if (DoesReads(job.rw) && DoesWrites(job.rw)) j["mix_read_pct"] = job.read_mix_pct;
  return j;
}

Result<JobSpec> JobFromJson(const nlohmann::json& j) {
  JobSpec job;
  try {
    std::optional<AccessPattern> rw = ParseAccessPattern(j.at("rw").get<std::string>());
    if (!rw) return Status::BadInput("job.rw: unknown access pattern " + j.at("rw").dump());
    job.rw = *rw;
    job.bs = j.at("bs").get<uint64_t>();
    job.qd = j.at("qd").get<uint32_t>();
    job.threads = j.at("threads").get<uint32_t>();
    job.size = j.at("size").get<uint64_t>();
    job.time_s = j.value("time_s", 0.0);
    job.time_based = j.value("time_based", false);
    job.ramp_s = j.value("ramp_s", 0.0);
    job.direct = j.value("direct", false);
    job.fsync = j.value("fsync", false);
    job.engine = j.value("engine", std::string("auto"));
    job.repeat = j.value("repeat", 1u);
    job.read_mix_pct = j.value("mix_read_pct", 50);
    Result<BufferPattern> pattern = ParseBufferPattern(j.value("pattern", std::string("random")));
    if (!pattern.ok()) return Status::BadInput("job.pattern: " + pattern.status().message());
    job.pattern = pattern.value();
  } catch (const nlohmann::json::exception& e) {
    return Status::BadInput(std::string("job: ") + e.what());
  }
  return job;
}

ojson RunToJson(const RunResult& run) {
  ojson j;
  if (run.id) j["id"] = run.id;
  j["name"] = run.name;
  if (!run.test.empty()) j["test"] = run.test;
  j["target"] = run.target;
  j["partial"] = run.partial;
  if (!run.started_at.empty()) j["started_at"] = run.started_at;
  if (run.source_tool != "nasperf") {
    j["source_tool"] = run.source_tool;
    j["source_file"] = run.source_file;
  }
  j["job"] = JobToJson(run.job, run.engine);
  if (DidIo(run.read)) j["read"] = DirectionToJson(*run.read);
  if (DidIo(run.write)) j["write"] = DirectionToJson(*run.write);
  j["cpu"] = {{"user_pct", run.cpu.user_pct}, {"sys_pct", run.cpu.sys_pct}};
  ojson samples = ojson::array();
  for (const Sample& s : run.samples)
    samples.push_back({{"t_s", s.t_s}, {"read_mb_per_s", s.read_mb_per_s}, {"write_mb_per_s", s.write_mb_per_s}});
  j["samples"] = samples;
  j["tags"] = run.tags;
  if (!run.error.empty()) j["error"] = run.error;
  if (!run.notes.empty()) j["notes"] = run.notes;
  if (!run.command_line.empty()) j["command_line"] = run.command_line;
  if (!run.inventory.empty()) j["inventory"] = run.inventory;
  if (run.cached) j["cached"] = *run.cached;
  if (!run.repeats.empty()) {
    j["repeats_mb_per_s"] = RepeatTotals(run);
    j["repeats"] = RepeatsToJson(run);
  }
  return j;
}

ojson DocumentToJson(const std::vector<RunResult>& runs) {
  ojson doc = {{"nasperf", {{"version", NASPERF_VERSION}}}, {"runs", ojson::array()}};
  for (const RunResult& r : runs) doc["runs"].push_back(RunToJson(r));
  return doc;
}

}  // namespace nasperf
