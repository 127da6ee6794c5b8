// The job object of the JSON document and of the results database: what was asked, and
// the queue depth that ran.
#include "model/job_json.h"

#include "workload/run_seed.h"

namespace nasperf {

using ojson = nlohmann::ordered_json;

ojson JobToJson(const JobSpec& job, const std::string& engine, uint32_t qd_run) {
  ojson j = {
      {"rw", ToString(job.rw)},   {"bs", job.bs},         {"qd", job.qd},
      {"threads", job.threads},   {"size", job.size},     {"time_s", job.time_s},
      {"time_based", job.time_based}, {"ramp_s", job.ramp_s}, {"direct", job.direct},
      {"fsync", job.fsync},       {"engine", engine},     {"pattern", ToString(job.pattern)},
      {"repeat", job.repeat},     {"verify", job.verify},
  };
  if (DoesReads(job.rw) && DoesWrites(job.rw)) j["mix_read_pct"] = job.read_mix_pct;
  if (job.seed) j["seed"] = *job.seed;
  // The queue depth that ran (a run's, not a job's to run): absent when not known.
  if (qd_run) j["qd_run"] = qd_run;
  return j;
}

uint32_t QdRunFromJson(const nlohmann::json& job) {
  auto it = job.find("qd_run");
  if (it == job.end() || !it->is_number_unsigned()) return 0;
  const uint64_t qd = it->get<uint64_t>();
  return qd <= UINT32_MAX ? static_cast<uint32_t>(qd) : 0;
}

Result<JobSpec> JobFromJson(const nlohmann::json& j) {
  JobSpec job;
  // get<uint64_t>() turns -5 into 2^64-5 without a word: check the sign first.
  for (const char* key : {"bs", "qd", "threads", "size"}) {
    auto it = j.is_object() ? j.find(key) : j.end();
    // A number built in code is signed in nlohmann even when positive: the sign decides.
    const bool whole = it != j.end() && (it->is_number_unsigned() || (it->is_number_integer() && it->get<int64_t>() >= 0));
    if (it != j.end() && !whole)
      return Status::BadInput(std::string("job.") + key + ": " +
                              it->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).substr(0, 40) +
                              " is not a whole number of 0 or more");
  }
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
    job.verify = j.value("verify", false);
    job.engine = j.value("engine", std::string("auto"));
    job.repeat = j.value("repeat", 1u);
    job.read_mix_pct = j.value("mix_read_pct", 50);
    Result<BufferPattern> pattern = ParseBufferPattern(j.value("pattern", std::string("random")));
    if (!pattern.ok()) return Status::BadInput("job.pattern: " + pattern.status().message());
    job.pattern = pattern.value();
    if (auto seed = j.find("seed"); seed != j.end() && !seed->is_null()) {
      if (!seed->is_number_unsigned() || seed->get<uint64_t>() > kMaxSeed)
        return Status::BadInput("job.seed: expected a whole number 0..2^53-1, got " + seed->dump());
      job.seed = seed->get<uint64_t>();
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::BadInput(std::string("job: ") + e.what());
  }
  return job;
}

}  // namespace nasperf
