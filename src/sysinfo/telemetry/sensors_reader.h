// Temperatures and fan speeds from libsensors (lm-sensors), read under one process-wide lock.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nasperf::sysinfo::telemetry {

struct SensorReading {
  std::string chip;   // libsensors' chip name: "coretemp-isa-0000", "nct6775-isa-0290"
  std::string label;  // the feature's label: "Package id 0", "fan1"
  double value = 0;   // °C for temperatures, rpm for fans
};
struct SensorReadings {
  std::vector<SensorReading> temperatures;
  std::vector<SensorReading> fans;
};

// Reads every chip's temperature and fan inputs. nullopt when libsensors cannot start (no
// configuration); empty lists when the machine has no sensors (most VMs). libsensors is
// initialised once per process and kept; calls are serialised, so any thread may call this.
std::optional<SensorReadings> ReadSensors();

}  // namespace nasperf::sysinfo::telemetry
