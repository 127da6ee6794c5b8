// AddTelemetryEvidence / SetIrqAffinities: telemetry samples to CPU peaks and IRQ landings.
#include "diagnose/evidence_from_telemetry.h"

#include <algorithm>
#include <cmath>

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

double Number(const ojson& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}

// One sample's CPUs; empty when the sample has none of the right shape.
std::vector<CpuPeak> SampleCpus(const ojson& sample) {
  std::vector<CpuPeak> out;
  auto it = sample.find("cpus");
  if (it == sample.end() || !it->is_array()) return out;
  for (const ojson& c : *it) {
    if (!c.is_object() || !c.contains("cpu") || !c["cpu"].is_number_integer() || !c.contains("busy_pct") ||
        !c["busy_pct"].is_number())
      continue;
    out.push_back(
        CpuPeak{c["cpu"].get<int64_t>(), Number(c, "busy_pct"), Number(c, "softirq_pct"), Number(c, "irq_pct")});
  }
  return out;
}

struct Busiest {
  double all_busy = -1;
  double top_busy = -1;
  std::vector<CpuPeak> cpus;
};

struct IrqTally {
  IrqLanding landing;
  std::vector<double> per_cpu;
};

std::string Str(const ojson& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void TallyInterrupts(const ojson& sample, double interval_s, std::vector<IrqTally>* tallies) {
  auto it = sample.find("interrupts");
  if (it == sample.end() || !it->is_array()) return;
  for (const ojson& line : *it) {
    if (!line.is_object()) continue;
    const std::string irq = Str(line, "irq");
    if (irq.empty()) continue;
    // Rates per second (what the sampler writes) or counts per sample.
    auto rates = line.find("per_cpu_per_s");
    double scale = interval_s;
    if (rates == line.end()) {
      rates = line.find("per_cpu");
      scale = 1;
    }
    if (rates == line.end() || !rates->is_array()) continue;
    const std::string name = Str(line, "name");
    auto t = std::find_if(tallies->begin(), tallies->end(),
                          [&](const IrqTally& x) { return x.landing.irq == irq && x.landing.name == name; });
    if (t == tallies->end()) {
      IrqTally fresh;
      fresh.landing.irq = irq;
      fresh.landing.name = name;
      fresh.landing.kind = Str(line, "kind");
      if (std::string device = Str(line, "device"); !device.empty()) fresh.landing.device = device;
      tallies->push_back(std::move(fresh));
      t = tallies->end() - 1;
    }
    // The sampler reads /proc/irq/N/smp_affinity each second (irqbalance may move a
    // line): the last one read is what the line had when the steps ended.
    if (std::string affinity = Str(line, "smp_affinity"); !affinity.empty()) t->landing.smp_affinity = affinity;
    for (size_t i = 0; i < rates->size(); ++i) {
      const ojson& v = (*rates)[i];
      if (!v.is_number() || v.get<double>() < 0) continue;
      if (t->per_cpu.size() <= i) t->per_cpu.resize(i + 1, 0);
      t->per_cpu[i] += v.get<double>() * scale;
    }
  }
}

std::optional<double> OptionalNumber(const ojson& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

// The cgroup's most throttled second (ties to the higher use): the one that says whether
// its quota held the services back.
struct CgroupPeak {
  bool found = false;
  double throttled = -1, usage = -1;
  std::optional<std::string> path;
  std::optional<double> quota_cpus, usage_cpus, throttled_pct;
};

void PeekCgroup(const ojson& sample, CgroupPeak* peak) {
  auto it = sample.find("cgroup");
  if (it == sample.end() || !it->is_object()) return;
  const ojson& g = *it;
  const std::optional<double> throttled = OptionalNumber(g, "throttled_pct");
  const std::optional<double> usage = OptionalNumber(g, "usage_cpus");
  const double t = throttled.value_or(-1), u = usage.value_or(-1);
  if (peak->found && (t < peak->throttled || (t == peak->throttled && u <= peak->usage))) return;
  peak->found = true;
  peak->throttled = t;
  peak->usage = u;
  const std::string path = Str(g, "path");
  peak->path = path.empty() ? std::nullopt : std::optional<std::string>(path);
  peak->quota_cpus = OptionalNumber(g, "quota_cpus");
  peak->usage_cpus = usage;
  peak->throttled_pct = throttled;
}

}  // namespace

void AddTelemetryEvidence(const std::vector<ojson>& telemetry, HostEvidence* host) {
  Busiest busiest;
  CgroupPeak cgroup;
  std::vector<IrqTally> tallies;
  for (const ojson& doc : telemetry) {
    if (!doc.is_object()) continue;
    auto samples = doc.find("samples");
    if (samples == doc.end() || !samples->is_array()) continue;
    double interval_s = Number(doc, "interval_s");
    if (interval_s <= 0) interval_s = 1;
    for (const ojson& sample : *samples) {
      if (!sample.is_object()) continue;
      TallyInterrupts(sample, interval_s, &tallies);
      PeekCgroup(sample, &cgroup);
      std::vector<CpuPeak> cpus = SampleCpus(sample);
      if (cpus.empty()) continue;
      double all = 0, top = 0;
      for (const CpuPeak& c : cpus) {
        all += c.busy_pct;
        top = std::max(top, c.busy_pct);
      }
      all /= static_cast<double>(cpus.size());
      if (all > busiest.all_busy || (all == busiest.all_busy && top > busiest.top_busy))
        busiest = Busiest{all, top, std::move(cpus)};
    }
  }
  if (!busiest.cpus.empty()) {
    CpuPeak all{-1, 0, 0, 0};
    const CpuPeak* top = &busiest.cpus.front();
    for (const CpuPeak& c : busiest.cpus) {
      all.busy_pct += c.busy_pct;
      all.softirq_pct += c.softirq_pct;
      all.irq_pct += c.irq_pct;
      if (c.busy_pct > top->busy_pct) top = &c;
    }
    const double n = static_cast<double>(busiest.cpus.size());
    all.busy_pct /= n;
    all.softirq_pct /= n;
    all.irq_pct /= n;
    host->cpu_all = all;
    host->cpu_top = *top;
    host->cpus = busiest.cpus;
  }
  if (cgroup.found) {
    host->cgroup_path = cgroup.path;
    host->cgroup_quota_cpus = cgroup.quota_cpus;
    host->cgroup_usage_cpus = cgroup.usage_cpus;
    host->cgroup_throttled_pct = cgroup.throttled_pct;
  }
  std::vector<IrqLanding> irqs;
  for (IrqTally& t : tallies) {
    double total = 0;
    size_t top = 0;
    for (size_t i = 0; i < t.per_cpu.size(); ++i) {
      total += t.per_cpu[i];
      if (t.per_cpu[i] > t.per_cpu[top]) top = i;
    }
    if (total <= 0) continue;
    t.landing.top_cpu = static_cast<int64_t>(top);
    t.landing.top_share = t.per_cpu[top] / total;
    t.landing.count = static_cast<uint64_t>(std::llround(total));
    // A line already known (its smp_affinity read) keeps that.
    for (const IrqLanding& old : host->irqs)
      if (old.irq == t.landing.irq && old.smp_affinity) t.landing.smp_affinity = old.smp_affinity;
    irqs.push_back(std::move(t.landing));
  }
  if (irqs.empty()) return;
  std::stable_sort(irqs.begin(), irqs.end(),
                   [](const IrqLanding& a, const IrqLanding& b) { return a.count > b.count; });
  host->irqs = std::move(irqs);
}

void SetIrqAffinities(const std::map<std::string, std::string>& affinity_by_irq, HostEvidence* host) {
  for (IrqLanding& irq : host->irqs) {
    auto it = affinity_by_irq.find(irq.irq);
    if (it != affinity_by_irq.end()) irq.smp_affinity = it->second;
  }
}

}  // namespace nasperf
