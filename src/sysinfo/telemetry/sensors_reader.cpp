// libsensors access: one initialisation per process, reads serialised (the library keeps global state).
#include "sysinfo/telemetry/sensors_reader.h"

#include <sensors/sensors.h>

#include <cmath>
#include <cstdlib>
#include <mutex>

namespace nasperf::sysinfo::telemetry {
namespace {

std::mutex& SensorsMutex() {
  static std::mutex m;
  return m;
}

}  // namespace

std::optional<SensorReadings> ReadSensors() {
  std::lock_guard lock(SensorsMutex());
  // sensors_init is not re-entrant and keeps its state until sensors_cleanup; doing it once
  // and keeping it for the process avoids re-reading the configuration every second.
  static const bool initialised = sensors_init(nullptr) == 0;
  if (!initialised) return std::nullopt;
  SensorReadings out;
  int chip_nr = 0;
  while (const sensors_chip_name* chip = sensors_get_detected_chips(nullptr, &chip_nr)) {
    char chip_name[128];
    if (sensors_snprintf_chip_name(chip_name, sizeof chip_name, chip) < 0) continue;
    int feature_nr = 0;
    while (const sensors_feature* feature = sensors_get_features(chip, &feature_nr)) {
      sensors_subfeature_type input;
      if (feature->type == SENSORS_FEATURE_TEMP) input = SENSORS_SUBFEATURE_TEMP_INPUT;
      else if (feature->type == SENSORS_FEATURE_FAN) input = SENSORS_SUBFEATURE_FAN_INPUT;
      else continue;
      const sensors_subfeature* sub = sensors_get_subfeature(chip, feature, input);
      double value = 0;
      if (!sub || sensors_get_value(chip, sub->number, &value) != 0 || !std::isfinite(value)) continue;
      char* label = sensors_get_label(chip, feature);
      SensorReading r{chip_name, label ? label : feature->name, value};
      std::free(label);
      (feature->type == SENSORS_FEATURE_TEMP ? out.temperatures : out.fans).push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace nasperf::sysinfo::telemetry
