// libFuzzer target: a diagnosis document (`diagnose --json`, the store's stored document, an
// import): bounded parse, then DiagnosisFromJson. A diagnosis that reads must survive its
// round trip unchanged.
#include <cstdlib>

#include "base/bounded_json.h"
#include "fuzz_input.h"
#include "model/diagnosis_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::Result<nlohmann::json> j = nasperf::ParseBoundedJson(nasperf::fuzz::AsText(data, size));
  if (!j.ok()) return 0;
  nasperf::Result<nasperf::Diagnosis> d = nasperf::DiagnosisFromJson(j.value());
  if (!d.ok()) return 0;
  const std::string once =
      nasperf::DiagnosisToJson(d.value()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  nasperf::Result<nasperf::Diagnosis> again = nasperf::DiagnosisFromJson(nlohmann::json::parse(once));
  // Invalid UTF-8 in a string is replaced when written, so only the re-read document must match.
  if (!again.ok()) std::abort();
  const std::string twice =
      nasperf::DiagnosisToJson(again.value()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (twice != once) std::abort();
  return 0;
}
