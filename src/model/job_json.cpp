// The job object of the JSON document and of the results database: what was asked (each
// option's key from model/job_options), and the queue depth that ran.
#include "model/job_json.h"

#include "model/job_options.h"

namespace nasperf {

using ojson = nlohmann::ordered_json;

ojson JobToJson(const JobSpec& job, const std::string& engine, uint32_t qd_run) {
  JobSpec shown = job;
  shown.engine = engine;  // the engine that ran, not "auto"
  ojson j = ojson::object();
  for (const JobOption& option : JobOptionTable()) option.to_json(shown, j);
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
    for (const JobOption& option : JobOptionTable())
      if (Status s = option.from_json(j, job); !s.ok()) return s;
  } catch (const nlohmann::json::exception& e) {
    return Status::BadInput(std::string("job: ") + e.what());
  }
  return job;
}

}  // namespace nasperf
