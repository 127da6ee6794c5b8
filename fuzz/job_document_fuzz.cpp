// libFuzzer target: a job as it arrives in JSON (an agent's JobStart "job", a stored run's
// job, an imported document's "job"): bounded parse, then JobFromJson and the job's own
// validation. A job that passes must survive its round trip unchanged.
#include <cstdlib>

#include "fuzz_input.h"
#include "base/bounded_json.h"
#include "model/run_json.h"
#include "model/job_validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::Result<nlohmann::json> j = nasperf::ParseBoundedJson(nasperf::fuzz::AsText(data, size));
  if (!j.ok()) return 0;
  nasperf::Result<nasperf::JobSpec> job = nasperf::JobFromJson(j.value());
  if (!job.ok()) return 0;
  (void)ValidateJob(job.value());
  const nlohmann::ordered_json once = nasperf::JobToJson(job.value(), job.value().engine);
  nasperf::Result<nasperf::JobSpec> again = nasperf::JobFromJson(nlohmann::json::parse(once.dump()));
  if (!again.ok() || nasperf::JobToJson(again.value(), again.value().engine).dump() != once.dump()) std::abort();
  return 0;
}
