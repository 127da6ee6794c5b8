// TelemetrySentences: each kind of telemetry figure as the sentence a reader sees.
#include "report/telemetry_text.h"

#include <fmt/format.h>

#include <cmath>

namespace nasperf {
namespace {

std::string Bytes(double bytes) {
  const double gib = 1024.0 * 1024 * 1024;
  if (std::fabs(bytes) >= gib) return fmt::format("{:.1f} GiB", bytes / gib);
  return fmt::format("{:.0f} MiB", bytes / (1024 * 1024));
}

const char* DeviceNoun(const std::string& kind) { return kind == "nic" ? "NIC" : "disk controller"; }

std::string CpuBusyLine(const std::vector<CpuFigures>& cpus) {
  std::string line = "CPU busy:";
  for (const CpuFigures& c : cpus)
    line += fmt::format("{} CPU{} {:.0f} %", &c == &cpus.front() ? "" : ",", c.cpu, c.busy_pct);
  return line + " (median)";
}

std::string ImbalanceLine(const IrqImbalance& imbalance) {
  const CpuFigures& hot = imbalance.hot;
  std::string why;
  if (hot.irq_pct >= 10) why += fmt::format("{:.0f} % irq", hot.irq_pct);
  if (hot.softirq_pct >= 10) why += fmt::format("{}{:.0f} % softirq", why.empty() ? "" : ", ", hot.softirq_pct);
  std::string line =
      fmt::format("CPU{} {:.0f} % busy{} while CPU{} idle ({:.0f} %): interrupts not balanced — ", hot.cpu,
                  hot.busy_pct, why.empty() ? "" : " (" + why + ")", imbalance.cold.cpu, imbalance.cold.busy_pct);
  for (size_t i = 0; i < imbalance.culprits.size(); ++i) {
    const IrqImbalance::Culprit& c = imbalance.culprits[i];
    std::string where = c.share >= 0.995 ? "all" : fmt::format("{:.0f} %", c.share * 100);
    line += (i ? ", " : "") + fmt::format("{} {}'s IRQs {} on CPU{}", DeviceNoun(c.kind), c.device, where, hot.cpu);
  }
  return line;
}

// Where one device's interrupts went, for the reader who wants the distribution.
std::string IrqDeviceLine(const IrqDeviceFigures& d) {
  std::string line = fmt::format("interrupts: {} {} {:.0f}/s (median) —", DeviceNoun(d.kind), d.device, d.median_per_s);
  bool first = true;
  for (const auto& [cpu, v] : d.per_cpu_total) {
    if (v <= 0) continue;
    line += fmt::format("{} CPU{} {:.0f} %", first ? "" : ",", cpu, 100 * v / d.total());
    first = false;
  }
  return line;
}

std::string DiskLine(const DiskFigures& d) {
  std::string line = fmt::format("disk {} {:.0f} % utilised, {:.1f} MB/s read, {:.1f} MB/s write (median)", d.disk,
                                 d.util_pct, d.read_mb_per_s, d.write_mb_per_s);
  if (d.saturated) line += ": the disk is the bottleneck";
  return line;
}

std::string PageCacheLine(double first_bytes, double last_bytes) {
  return fmt::format("page cache {} {} during the run ({} → {})", last_bytes > first_bytes ? "grew" : "shrank",
                     Bytes(std::fabs(last_bytes - first_bytes)), Bytes(first_bytes), Bytes(last_bytes));
}

std::string SensorsLine(const TelemetryFigures& f) {
  std::string temps = f.max_celsius ? fmt::format("temperatures: max {:.0f} °C ({})", *f.max_celsius, f.hottest) : "";
  std::string fans;
  if (f.fan_max_rpm)
    fans = *f.fan_min_rpm == *f.fan_max_rpm ? fmt::format("fans {:.0f} rpm", *f.fan_max_rpm)
                                            : fmt::format("fans {:.0f}-{:.0f} rpm", *f.fan_min_rpm, *f.fan_max_rpm);
  if (temps.empty() && fans.empty()) return "no sensors";
  if (fans.empty()) return temps + "; no fan readings";
  if (temps.empty()) return "no temperature readings; " + fans;
  return temps + "; " + fans;
}

}  // namespace

std::vector<std::string> TelemetrySentences(const TelemetryFigures& f) {
  std::vector<std::string> lines;
  if (!f.cpus.empty()) lines.push_back(CpuBusyLine(f.cpus));
  if (f.imbalance) lines.push_back(ImbalanceLine(*f.imbalance));
  for (const IrqDeviceFigures& d : f.irq_devices) lines.push_back(IrqDeviceLine(d));
  for (const DiskFigures& d : f.active_disks) lines.push_back(DiskLine(d));
  if (f.page_cache_change_bytes)
    lines.push_back(PageCacheLine(f.page_cache_change_bytes->first, f.page_cache_change_bytes->second));
  lines.push_back(SensorsLine(f));
  return lines;
}

std::vector<std::string> SummariseTelemetry(const nlohmann::json& telemetry) {
  if (!telemetry.is_object()) return {};
  TelemetryFigures figures = MeasureTelemetry(telemetry);
  if (figures.samples == 0) return {"no telemetry samples (the run ended within the first second)"};
  return TelemetrySentences(figures);
}

std::string TelemetryText(const nlohmann::json& telemetry) {
  if (!telemetry.is_object()) return "";
  std::vector<std::string> lines;
  auto samples_it = telemetry.find("samples");
  size_t samples = samples_it != telemetry.end() && samples_it->is_array() ? samples_it->size() : 0;
  if (samples > 0) {
    lines = SummariseTelemetry(telemetry);
  } else {
    if (auto it = telemetry.find("summary"); it != telemetry.end() && it->is_array())
      for (const nlohmann::json& l : *it)
        if (l.is_string()) lines.push_back(l.get<std::string>());
    if (lines.empty()) lines = SummariseTelemetry(telemetry);
  }
  auto interval_it = telemetry.find("interval_s");
  double interval_s = interval_it != telemetry.end() && interval_it->is_number() ? interval_it->get<double>() : 0.0;
  std::string rate = interval_s > 0 ? fmt::format("{:g} Hz", 1 / interval_s) : "unknown rate";
  std::string out = fmt::format("Telemetry (NAS, {}, {} sample{})\n", rate, samples, samples == 1 ? "" : "s");
  for (const std::string& l : lines) out += "  " + l + "\n";
  return out;
}

}  // namespace nasperf
