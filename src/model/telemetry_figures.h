// What a run's NAS telemetry measured, as typed figures: medians over its sample series
// and the diagnoses drawn from them (src/report/telemetry_text.h puts them in sentences).
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nasperf {

// One CPU's medians over the run, in % of its time.
struct CpuFigures {
  int cpu = 0;
  double busy_pct = 0;  // 100 - idle - iowait
  double softirq_pct = 0;
  double irq_pct = 0;
};

// The interrupts of one NIC or disk controller.
struct IrqDeviceFigures {
  std::string kind;                     // "nic" or "disk"
  std::string device;                   // "eth0", "ahci", or the interrupt line's name
  double median_per_s = 0;              // all CPUs together, median over the samples
  std::map<int, double> per_cpu_total;  // interrupts per second summed over the samples, by CPU
  double total() const;
  double share_on(int cpu) const;  // of total(), 0..1
};

// Interrupts not balanced: the busiest CPU saturated while the idlest is nearly idle, and
// busy devices' interrupts land on the busiest one.
struct IrqImbalance {
  CpuFigures hot, cold;
  struct Culprit {
    std::string kind, device;  // as IrqDeviceFigures
    double share = 0;          // of its interrupts on the hot CPU, 0..1
  };
  std::vector<Culprit> culprits;  // never empty
};

// One disk's medians over the run. MB/s = 10^6 bytes/s.
struct DiskFigures {
  std::string disk;
  double util_pct = 0;
  double read_mb_per_s = 0;
  double write_mb_per_s = 0;
  bool saturated = false;  // util_pct at kDiskSaturatedPct or more: the disk limits the run
};

struct TelemetryFigures {
  size_t samples = 0;
  std::vector<CpuFigures> cpus;               // by CPU number
  std::vector<IrqDeviceFigures> irq_devices;  // NICs first, then disk controllers; none silent
  std::optional<IrqImbalance> imbalance;
  std::vector<DiskFigures> active_disks;  // by name; disks idle for the run's purpose left out
  // The page cache at the first and last sample, when it changed by more than noise.
  std::optional<std::pair<double, double>> page_cache_change_bytes;
  // The hottest reading of the run and where ("coretemp Package id 0").
  std::optional<double> max_celsius;
  std::string hottest;
  std::optional<double> fan_min_rpm, fan_max_rpm;
};

// Reads a run's telemetry ({"samples": [...]} as TelemetrySampler writes it; damaged
// members count as absent). A non-object or no samples gives samples = 0 and nothing else.
TelemetryFigures MeasureTelemetry(const nlohmann::json& telemetry);

}  // namespace nasperf
