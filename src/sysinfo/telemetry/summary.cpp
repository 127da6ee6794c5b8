// SummariseTelemetry: medians over a run's telemetry series and the diagnoses drawn from them.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "sysinfo/telemetry/telemetry.h"

namespace nasperf::sysinfo::telemetry {
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

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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

std::string Bytes(double bytes) {
  const double gib = 1024.0 * 1024 * 1024;
  if (std::fabs(bytes) >= gib) return fmt::format("{:.1f} GiB", bytes / gib);
  return fmt::format("{:.0f} MiB", bytes / (1024 * 1024));
}

// "coretemp-isa-0000" -> "coretemp".
std::string ChipShort(const std::string& chip) { return chip.substr(0, chip.find('-')); }

struct CpuSeries {
  std::vector<double> busy, softirq, irq;
};

struct IrqDevice {
  std::string kind, device;
  std::map<int, double> per_cpu_total;  // interrupts per second summed over samples, by CPU
  std::vector<double> rate_per_sample;  // all CPUs, one entry per sample (0 when quiet)
  double total() const {
    double t = 0;
    for (const auto& [cpu, v] : per_cpu_total) t += v;
    return t;
  }
};

}  // namespace

std::vector<std::string> SummariseTelemetry(const nlohmann::json& telemetry) {
  std::vector<std::string> lines;
  if (!telemetry.is_object()) return lines;
  const Json& samples = Arr(telemetry, "samples");
  if (samples.empty()) {
    lines.push_back("no telemetry samples (the run ended within the first second)");
    return lines;
  }

  // CPUs.
  std::map<int, CpuSeries> cpus;
  for (const Json& s : samples)
    for (const Json& c : Arr(s, "cpus")) {
      if (!c.is_object() || !c.contains("cpu") || !c["cpu"].is_number_integer()) continue;
      CpuSeries& series = cpus[c["cpu"].get<int>()];
      series.busy.push_back(Num(c, "busy_pct"));
      series.softirq.push_back(Num(c, "softirq_pct"));
      series.irq.push_back(Num(c, "irq_pct"));
    }
  std::map<int, double> busy;
  if (!cpus.empty()) {
    std::string line = "CPU busy:";
    for (const auto& [cpu, series] : cpus) {
      busy[cpu] = Median(series.busy);
      line += fmt::format("{} CPU{} {:.0f} %", cpu == cpus.begin()->first ? "" : ",", cpu, busy[cpu]);
    }
    lines.push_back(line + " (median)");
  }

  // Interrupts of NICs and disk controllers, by device.
  std::map<std::pair<std::string, std::string>, IrqDevice> devices;
  for (size_t i = 0; i < samples.size(); ++i) {
    const Json& s = samples[i];
    std::vector<int> columns;
    for (const Json& c : Arr(s, "interrupt_cpus"))
      if (c.is_number_integer()) columns.push_back(c.get<int>());
    for (const Json& irq : Arr(s, "interrupts")) {
      if (!irq.is_object()) continue;
      std::string kind = Str(irq, "kind"), device = Str(irq, "device");
      if (device.empty()) device = Str(irq, "name");
      IrqDevice& d = devices[{kind, device}];
      d.kind = kind;
      d.device = device;
      d.rate_per_sample.resize(samples.size(), 0.0);
      const Json per_s = Arr(irq, "per_cpu_per_s");
      for (size_t col = 0; col < per_s.size(); ++col) {
        if (!per_s[col].is_number()) continue;
        int cpu = col < columns.size() ? columns[col] : static_cast<int>(col);
        d.per_cpu_total[cpu] += per_s[col].get<double>();
        d.rate_per_sample[i] += per_s[col].get<double>();
      }
    }
  }
  // NICs first: the seeds' story is the network's interrupts.
  std::vector<const IrqDevice*> ordered;
  for (const char* kind : {"nic", "disk"})
    for (const auto& [key, d] : devices)
      if (d.kind == kind && d.total() > 0) ordered.push_back(&d);

  // Unbalanced interrupts: the busiest CPU saturated, the idlest nearly idle, and a busy
  // device's interrupts all on the busiest one.
  if (busy.size() >= 2) {
    auto hot = std::max_element(busy.begin(), busy.end(), [](auto& a, auto& b) { return a.second < b.second; });
    auto cold = std::min_element(busy.begin(), busy.end(), [](auto& a, auto& b) { return a.second < b.second; });
    std::vector<std::string> culprits;
    if (hot->second >= kCpuSaturatedPct && cold->second <= kCpuIdlePct) {
      for (const IrqDevice* d : ordered) {
        auto on_hot = d->per_cpu_total.find(hot->first);
        double share = on_hot == d->per_cpu_total.end() ? 0 : on_hot->second / d->total();
        if (Median(d->rate_per_sample) < kIrqSignificantPerS || share < kIrqConcentratedShare) continue;
        std::string where = share >= 0.995 ? "all" : fmt::format("{:.0f} %", share * 100);
        culprits.push_back(fmt::format("{} {}'s IRQs {} on CPU{}", d->kind == "nic" ? "NIC" : "disk controller",
                                       d->device, where, hot->first));
      }
    }
    if (!culprits.empty()) {
      const CpuSeries& h = cpus[hot->first];
      std::string why;
      double softirq = Median(h.softirq), irq = Median(h.irq);
      if (irq >= 10) why += fmt::format("{:.0f} % irq", irq);
      if (softirq >= 10) why += fmt::format("{}{:.0f} % softirq", why.empty() ? "" : ", ", softirq);
      std::string line = fmt::format("CPU{} {:.0f} % busy{} while CPU{} idle ({:.0f} %): interrupts not balanced — ",
                                     hot->first, hot->second, why.empty() ? "" : " (" + why + ")", cold->first,
                                     cold->second);
      for (size_t i = 0; i < culprits.size(); ++i) line += (i ? ", " : "") + culprits[i];
      lines.push_back(line);
    }
  }
  // Where each device's interrupts went, for the reader who wants the distribution.
  for (const IrqDevice* d : ordered) {
    std::string line = fmt::format("interrupts: {} {} {:.0f}/s (median) —", d->kind == "nic" ? "NIC" : "disk controller",
                                   d->device, Median(d->rate_per_sample));
    bool first = true;
    for (const auto& [cpu, v] : d->per_cpu_total) {
      if (v <= 0) continue;
      line += fmt::format("{} CPU{} {:.0f} %", first ? "" : ",", cpu, 100 * v / d->total());
      first = false;
    }
    lines.push_back(line);
  }

  // Disks.
  std::map<std::string, std::vector<double>> util, rd, wr;
  for (const Json& s : samples)
    for (const Json& d : Arr(s, "disks")) {
      std::string name = Str(d, "disk");
      if (name.empty()) continue;
      util[name].push_back(Num(d, "util_pct"));
      rd[name].push_back(Num(d, "read_mb_per_s"));
      wr[name].push_back(Num(d, "write_mb_per_s"));
    }
  for (const auto& [name, u] : util) {
    double m = Median(u);
    if (m < kDiskActivePct) continue;
    std::string line = fmt::format("disk {} {:.0f} % utilised, {:.1f} MB/s read, {:.1f} MB/s write (median)", name, m,
                                   Median(rd[name]), Median(wr[name]));
    if (m >= kDiskSaturatedPct) line += ": the disk is the bottleneck";
    lines.push_back(line);
  }

  // Page cache.
  std::optional<double> first_cache, last_cache;
  for (const Json& s : samples) {
    auto it = s.find("page_cache_bytes");
    if (it == s.end() || !it->is_number()) continue;
    if (!first_cache) first_cache = it->get<double>();
    last_cache = it->get<double>();
  }
  if (first_cache && last_cache && std::fabs(*last_cache - *first_cache) >= kPageCacheChangeBytes)
    lines.push_back(fmt::format("page cache {} {} during the run ({} → {})",
                                *last_cache > *first_cache ? "grew" : "shrank",
                                Bytes(std::fabs(*last_cache - *first_cache)), Bytes(*first_cache),
                                Bytes(*last_cache)));

  // Sensors.
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
  std::string temps = hottest.empty() ? "" : fmt::format("temperatures: max {:.0f} °C ({})", max_c, hottest);
  std::string fans = max_rpm < 0 ? "" : min_rpm == max_rpm ? fmt::format("fans {:.0f} rpm", max_rpm)
                                                           : fmt::format("fans {:.0f}-{:.0f} rpm", min_rpm, max_rpm);
  if (temps.empty() && fans.empty()) lines.push_back("no sensors");
  else if (fans.empty()) lines.push_back(temps + "; no fan readings");
  else if (temps.empty()) lines.push_back("no temperature readings; " + fans);
  else lines.push_back(temps + "; " + fans);
  return lines;
}

std::string TelemetryText(const nlohmann::json& telemetry) {
  if (!telemetry.is_object()) return "";
  std::vector<std::string> lines;
  size_t samples = Arr(telemetry, "samples").size();
  if (samples > 0) {
    lines = SummariseTelemetry(telemetry);
  } else {
    for (const Json& l : Arr(telemetry, "summary"))
      if (l.is_string()) lines.push_back(l.get<std::string>());
    if (lines.empty()) lines = SummariseTelemetry(telemetry);
  }
  double interval_s = Num(telemetry, "interval_s");
  std::string rate = interval_s > 0 ? fmt::format("{:g} Hz", 1 / interval_s) : "unknown rate";
  std::string out = fmt::format("Telemetry (NAS, {}, {} sample{})\n", rate, samples, samples == 1 ? "" : "s");
  for (const std::string& l : lines) out += "  " + l + "\n";
  return out;
}

}  // namespace nasperf::sysinfo::telemetry
