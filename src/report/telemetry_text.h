// A run's NAS telemetry in sentences: the lines `results show` prints under a run and
// TelemetrySampler stores as "summary" (the figures come from model/telemetry_figures.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/telemetry_figures.h"

namespace nasperf {

// Per-CPU busy % medians, an unbalanced-interrupts diagnosis, each device's interrupts,
// active disks, page-cache growth, temperatures and fans (or "no sensors").
std::vector<std::string> TelemetrySentences(const TelemetryFigures& figures);

// TelemetrySentences of MeasureTelemetry(telemetry); one line saying so when there are no
// samples; empty for null telemetry.
std::vector<std::string> SummariseTelemetry(const nlohmann::json& telemetry);

// The block printed under a run's table: "Telemetry (NAS, 1 Hz, 12 samples)\n" and the summary
// lines indented. Recomputed from the samples when there are any (a newer nasperf diagnoses
// old runs better), else the stored "summary". "" for null telemetry.
std::string TelemetryText(const nlohmann::json& telemetry);

}  // namespace nasperf
