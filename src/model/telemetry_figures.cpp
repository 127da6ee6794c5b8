// MeasureTelemetry: a run's telemetry series read into typed figures, one phase per kind
// of reading (CPUs, interrupts, disks, page cache, sensors).
#include "model/telemetry_figures.h"

#include <algorithm>
#include <cmath>

#include "stats/confidence.h"

namespace nasperf {
namespace {

using Json = nlohmann::json;

// A CPU this busy (median, 100 - idle - iowait) has no time left for the work behind the
// interrupts it takes: seed 004's CPU0 sat at 100 % while the other core idled.
constexpr double kCpuSaturatedPct = 85;
// A CPU at most this busy could have taken a share of the interrupts.
constexpr double kCpuIdlePct = 25;
// A device whose interrupts land this much on one CPU is not spread (irqbalance or RSS would
// give each CPU a fair share; 90 % leaves room for the odd interrupt elsewhere).
constexpr double kIrqConcentratedShare = 0.90;
// Fewer interrupts per second than this cannot load a CPU; their placement does not matter.
constexpr double kIrqSignificantPerS = 100;
// A disk busy this share of the time (median io_ticks) cannot take more I/O: iostat's %util
// near 100 is the classic sign that the disk, not the network or CPU, limits the run.
constexpr double kDiskSaturatedPct = 90;
// Below this a disk is idle for the run's purpose and gets no line of its own.
constexpr double kDiskActivePct = 5;
// Page-cache changes smaller than this are noise from everything else on the machine.
constexpr double kPageCacheChangeBytes = 64.0 * 1024 * 1024;

double Num(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

// j[key] when j is an object and that is an array; an empty array otherwise (stored data may be damaged).
const Json& Arr(const Json& j, const char* key) {
  static const Json empty = Json::array();
  if (!j.is_object()) return empty;
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : empty;
}

std::string Str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "coretemp-isa-0000" -> "coretemp".
std::string ChipShort(const std::string& chip) { return chip.substr(0, chip.find('-')); }

std::vector<CpuFigures> MeasureCpus(const Json& samples) {
  struct Series {
    std::vector<double> busy, softirq, irq;
  };
  std::map<int, Series> cpus;
  for (const Json& s : samples)
    for (const Json& c : Arr(s, "cpus")) {
      if (!c.is_object() || !c.contains("cpu") || !c["cpu"].is_number_integer()) continue;
      Series& series = cpus[c["cpu"].get<int>()];
      series.busy.push_back(Num(c, "busy_pct"));
      series.softirq.push_back(Num(c, "softirq_pct"));
      series.irq.push_back(Num(c, "irq_pct"));
    }
  std::vector<CpuFigures> out;
  for (const auto& [cpu, series] : cpus)
    out.push_back({cpu, Median(series.busy), Median(series.softirq), Median(series.irq)});
  return out;
}

// Interrupts of NICs and disk controllers, by device; NICs first (the seeds' story is the
// network's interrupts), devices that took none left out.
std::vector<IrqDeviceFigures> MeasureIrqDevices(const Json& samples) {
  struct Device {
    IrqDeviceFigures figures;
    std::vector<double> rate_per_sample;  // all CPUs, one entry per sample (0 when quiet)
  };
  std::map<std::pair<std::string, std::string>, Device> devices;
  for (size_t i = 0; i < samples.size(); ++i) {
    const Json& s = samples[i];
    std::vector<int> columns;
    for (const Json& c : Arr(s, "interrupt_cpus"))
      if (c.is_number_integer()) columns.push_back(c.get<int>());
    for (const Json& irq : Arr(s, "interrupts")) {
      if (!irq.is_object()) continue;
      std::string kind = Str(irq, "kind"), device = Str(irq, "device");
      if (device.empty()) device = Str(irq, "name");
      Device& d = devices[{kind, device}];
      d.figures.kind = kind;
      d.figures.device = device;
      d.rate_per_sample.resize(samples.size(), 0.0);
      const Json per_s = Arr(irq, "per_cpu_per_s");
      for (size_t col = 0; col < per_s.size(); ++col) {
        if (!per_s[col].is_number()) continue;
        int cpu = col < columns.size() ? columns[col] : static_cast<int>(col);
        d.figures.per_cpu_total[cpu] += per_s[col].get<double>();
        d.rate_per_sample[i] += per_s[col].get<double>();
      }
    }
  }
  std::vector<IrqDeviceFigures> out;
  for (const char* kind : {"nic", "disk"})
    for (auto& [key, d] : devices)
      if (d.figures.kind == kind && d.figures.total() > 0) {
        d.figures.median_per_s = Median(d.rate_per_sample);
        out.push_back(d.figures);
      }
  return out;
}

// The busiest CPU saturated, the idlest nearly idle, and a busy device's interrupts all on
// the busiest one; nullopt otherwise.
std::optional<IrqImbalance> FindImbalance(const std::vector<CpuFigures>& cpus,
                                          const std::vector<IrqDeviceFigures>& devices) {
  if (cpus.size() < 2) return std::nullopt;
  auto by_busy = [](const CpuFigures& a, const CpuFigures& b) { return a.busy_pct < b.busy_pct; };
  const CpuFigures& hot = *std::max_element(cpus.begin(), cpus.end(), by_busy);
  const CpuFigures& cold = *std::min_element(cpus.begin(), cpus.end(), by_busy);
  if (hot.busy_pct < kCpuSaturatedPct || cold.busy_pct > kCpuIdlePct) return std::nullopt;
  IrqImbalance imbalance{hot, cold, {}};
  for (const IrqDeviceFigures& d : devices) {
    double share = d.share_on(hot.cpu);
    if (d.median_per_s < kIrqSignificantPerS || share < kIrqConcentratedShare) continue;
    imbalance.culprits.push_back({d.kind, d.device, share});
  }
  if (imbalance.culprits.empty()) return std::nullopt;
  return imbalance;
}

std::vector<DiskFigures> MeasureActiveDisks(const Json& samples) {
  std::map<std::string, std::vector<double>> util, rd, wr;
  for (const Json& s : samples)
    for (const Json& d : Arr(s, "disks")) {
      std::string name = Str(d, "disk");
      if (name.empty()) continue;
      util[name].push_back(Num(d, "util_pct"));
      rd[name].push_back(Num(d, "read_mb_per_s"));
      wr[name].push_back(Num(d, "write_mb_per_s"));
    }
  std::vector<DiskFigures> out;
  for (const auto& [name, u] : util) {
    double m = Median(u);
    if (m < kDiskActivePct) continue;
    out.push_back({name, m, Median(rd[name]), Median(wr[name]), m >= kDiskSaturatedPct});
  }
  return out;
}

std::optional<std::pair<double, double>> MeasurePageCacheChange(const Json& samples) {
  std::optional<double> first, last;
  for (const Json& s : samples) {
    auto it = s.find("page_cache_bytes");
    if (it == s.end() || !it->is_number()) continue;
    if (!first) first = it->get<double>();
    last = it->get<double>();
  }
  if (!first || !last || std::fabs(*last - *first) < kPageCacheChangeBytes) return std::nullopt;
  return std::pair{*first, *last};
}

void MeasureSensors(const Json& samples, TelemetryFigures* out) {
  double max_c = -1e9, min_rpm = 1e18, max_rpm = -1;
  std::string hottest;
  for (const Json& s : samples) {
    for (const Json& t : Arr(s, "temperatures"))
      if (t.contains("celsius") && t["celsius"].is_number() && t["celsius"].get<double>() > max_c) {
        max_c = t["celsius"].get<double>();
        hottest = ChipShort(Str(t, "chip")) + " " + Str(t, "label");
      }
    for (const Json& f : Arr(s, "fans"))
      if (f.contains("rpm") && f["rpm"].is_number()) {
        min_rpm = std::min(min_rpm, f["rpm"].get<double>());
        max_rpm = std::max(max_rpm, f["rpm"].get<double>());
      }
  }
  if (!hottest.empty()) {
    out->max_celsius = max_c;
    out->hottest = hottest;
  }
  if (max_rpm >= 0) {
    out->fan_min_rpm = min_rpm;
    out->fan_max_rpm = max_rpm;
  }
}

}  // namespace

double IrqDeviceFigures::total() const {
  double t = 0;
  for (const auto& [cpu, v] : per_cpu_total) t += v;
  return t;
}

double IrqDeviceFigures::share_on(int cpu) const {
  auto it = per_cpu_total.find(cpu);
  return it == per_cpu_total.end() ? 0 : it->second / total();
}

TelemetryFigures MeasureTelemetry(const nlohmann::json& telemetry) {
  TelemetryFigures f;
  const Json& samples = Arr(telemetry, "samples");
  f.samples = samples.size();
  if (samples.empty()) return f;
  f.cpus = MeasureCpus(samples);
  f.irq_devices = MeasureIrqDevices(samples);
  f.imbalance = FindImbalance(f.cpus, f.irq_devices);
  f.active_disks = MeasureActiveDisks(samples);
  f.page_cache_change_bytes = MeasurePageCacheChange(samples);
  MeasureSensors(samples, &f);
  return f;
}

}  // namespace nasperf
