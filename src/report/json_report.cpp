// Renders RunResults as the stable JSON document. Fields are added, never renamed.
#include "report/json_report.h"

#include "nasperf/version.h"

namespace nasperf {
namespace {

nlohmann::json DirectionToJson(const DirectionResult& d) {
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

}  // namespace

nlohmann::json RunToJson(const RunResult& run) {
  const JobSpec& job = run.job;
  nlohmann::json j_job = {
      {"rw", ToString(job.rw)},   {"bs", job.bs},         {"qd", job.qd},
      {"threads", job.threads},   {"size", job.size},     {"time_s", job.time_s}, {"time_based", job.time_based},
      {"ramp_s", job.ramp_s},     {"direct", job.direct}, {"fsync", job.fsync},
      {"engine", run.engine},     {"pattern", ToString(job.pattern)}, {"repeat", job.repeat},
  };
  if (DoesReads(job.rw) && DoesWrites(job.rw)) j_job["mix_read_pct"] = job.read_mix_pct;
  nlohmann::json j = {
      {"name", run.name},
      {"target", run.target},
      {"partial", run.partial},
      {"job", j_job},
      {"cpu", {{"user_pct", run.cpu.user_pct}, {"sys_pct", run.cpu.sys_pct}}},
      {"tags", run.tags},
  };
  if (run.read && run.read->ios > 0) j["read"] = DirectionToJson(*run.read);
  if (run.write && run.write->ios > 0) j["write"] = DirectionToJson(*run.write);
  nlohmann::json samples = nlohmann::json::array();
  for (const Sample& s : run.samples)
    samples.push_back({{"t_s", s.t_s}, {"read_mb_per_s", s.read_mb_per_s}, {"write_mb_per_s", s.write_mb_per_s}});
  j["samples"] = samples;
  if (!run.test.empty()) j["test"] = run.test;
  if (!run.error.empty()) j["error"] = run.error;
  if (!run.notes.empty()) j["notes"] = run.notes;
  if (!run.repeat_mb_per_s.empty()) j["repeats_mb_per_s"] = run.repeat_mb_per_s;
  return j;
}

nlohmann::json DocumentToJson(const std::vector<RunResult>& runs) {
  nlohmann::json doc = {{"nasperf", {{"version", NASPERF_VERSION}}}, {"runs", nlohmann::json::array()}};
  for (const RunResult& r : runs) doc["runs"].push_back(RunToJson(r));
  return doc;
}

}  // namespace nasperf
