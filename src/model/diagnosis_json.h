// The one JSON form of a diagnosis (model/diagnosis.h): `diagnose --json`, the store's
// document and `report` all read and write it. Read tolerantly (older documents lack
// newer keys) but strictly on types: a wrong type is BadInput naming the key.
#pragma once

#include <nlohmann/json.hpp>

#include "model/diagnosis.h"
#include "nasperf/status.h"

namespace nasperf {

nlohmann::ordered_json DiagnosisToJson(const Diagnosis& d);
Result<Diagnosis> DiagnosisFromJson(const nlohmann::json& j);

}  // namespace nasperf
