// TelemetrySampler: a 1 Hz thread reading /proc, /sys and libsensors into JSON samples.
#include "sysinfo/telemetry/telemetry.h"

#include <chrono>
#include <cmath>
#include <algorithm>
#include <map>
#include <set>

#include "base/json_or_null.h"
#include "sysinfo/sysfs_read.h"
#include "sysinfo/telemetry/cgroup_cpu.h"
#include "sysinfo/telemetry/proc_parsers.h"
#include "sysinfo/telemetry/sensors_reader.h"

namespace nasperf::sysinfo::telemetry {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

// Names an interrupt line may start with, mapped to the network interface: the interface
// itself and the device behind it when that is a virtio device ("virtio2" -> "eth0").
std::map<std::string, std::string> NicAliases(const std::string& sys_root) {
  std::map<std::string, std::string> out;
  for (const std::string& iface : ListDir(sys_root + "/class/net")) {
    if (iface == "lo") continue;
    out[iface] = iface;
    std::optional<std::string> dev = LinkBaseName(sys_root + "/class/net/" + iface + "/device");
    if (dev && dev->rfind("virtio", 0) == 0) out[*dev] = iface;
  }
  return out;
}

}  // namespace

// The previous reading, kept between samples (only the sampler's thread touches it after Start).
struct TelemetrySampler::State {
  Clock::time_point started, last_at;
  std::vector<CpuTicks> cpus;
  Interrupts interrupts;
  std::vector<DiskCounters> disks;
  std::map<std::string, std::string> nics;
  std::vector<std::string> whole_disks;
  bool read_sensors = false;
  std::set<std::string> sensor_chips;
  std::optional<CgroupCpuFiles> cgroup_files;  // the sampler's own cgroup, found at Start
  CgroupCpuReading cgroup;

  void Read(const std::string& proc_root) {
    last_at = Clock::now();
    cpus = ParseProcStat(ReadFileText(proc_root + "/stat").value_or(""));
    interrupts = ParseInterrupts(ReadFileText(proc_root + "/interrupts").value_or(""));
    disks = ParseDiskStats(ReadFileText(proc_root + "/diskstats").value_or(""));
    if (cgroup_files) cgroup = ReadCgroupCpu(*cgroup_files);
  }
};

TelemetrySampler::TelemetrySampler(Summariser summarise, std::string proc_root, std::string sys_root)
    : summarise_(std::move(summarise)), proc_root_(std::move(proc_root)), sys_root_(std::move(sys_root)) {}

TelemetrySampler::~TelemetrySampler() {
  if (thread_.joinable()) Stop();
}

void TelemetrySampler::Start(std::function<void(const nlohmann::ordered_json& sample)> on_sample) {
  if (thread_.joinable()) return;
  on_sample_ = std::move(on_sample);
  state_ = std::make_unique<State>();
  state_->nics = NicAliases(sys_root_);
  state_->whole_disks = ListDir(sys_root_ + "/block");
  // The agent runs beside the NAS's services (in their container, or the lab's cgroup):
  // that cgroup's quota and throttling are the NAS's CPU limit, which /proc/stat cannot show.
  state_->cgroup_files = FindCgroupCpu(proc_root_, sys_root_);
  // libsensors always reads the real /sys; a fake tree (tests) has no sensors.
  state_->read_sensors = sys_root_ == "/sys";
  state_->Read(proc_root_);
  state_->started = state_->last_at;
  {
    std::lock_guard lock(mutex_);
    stop_ = false;
    samples_ = Json::array();
  }
  thread_ = std::thread([this] { Loop(); });
}

// Shorter than this, a final partial interval is too noisy to be worth a sample.
constexpr auto kShortestFinalInterval = std::chrono::milliseconds(200);

void TelemetrySampler::Loop() {
  const auto interval = std::chrono::milliseconds(interval_ms_);
  Clock::time_point next = state_->started + interval;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_until(lock, next, [this] { return stop_; })) break;
    }
    TakeSample();
    next += interval;
    // A stalled machine (or a slow sensor) must not cause a burst of catch-up samples.
    if (Clock::time_point now = Clock::now(); next < now) next = now + interval;
  }
  // The part of an interval before Stop counts too: a run shorter than the interval
  // still gets one sample, with rates over the time it covers.
  if (Clock::now() - state_->last_at >= kShortestFinalInterval) TakeSample();
}

namespace {

Json CpusJson(const std::vector<CpuTicks>& before, const std::vector<CpuTicks>& after) {
  Json cpus = Json::array();
  for (const CpuPercent& c : CpuDeltas(before, after))
    cpus.push_back({{"cpu", c.cpu}, {"busy_pct", RoundTo(c.busy, 10)}, {"user_pct", RoundTo(c.user, 10)},
                    {"system_pct", RoundTo(c.system, 10)}, {"irq_pct", RoundTo(c.irq, 10)},
                    {"softirq_pct", RoundTo(c.softirq, 10)}, {"iowait_pct", RoundTo(c.iowait, 10)},
                    {"idle_pct", RoundTo(c.idle, 10)}});
  return cpus;
}

// Which CPUs interrupt line `irq` may land on, from /proc/irq/N/: read at every sample,
// since irqbalance or an administrator may move it during a run. Null when unreadable
// (an older kernel, a line gone) or `irq` is not a number.
void AddAffinity(const std::string& proc_root, const std::string& irq, Json* entry) {
  bool numeric = !irq.empty() && irq.find_first_not_of("0123456789") == std::string::npos;
  std::string dir = proc_root + "/irq/" + irq;
  (*entry)["smp_affinity"] = OrNullJson(numeric ? ReadFirstLine(dir + "/smp_affinity") : std::nullopt);
  (*entry)["smp_affinity_list"] = OrNullJson(numeric ? ReadFirstLine(dir + "/smp_affinity_list") : std::nullopt);
}

// The NIC and disk-controller lines that took interrupts in the interval, per CPU per
// second, with their affinity. A CPU going on or off line between two readings changes the
// columns, and that interval's interrupts are left out.
Json InterruptsJson(const Interrupts& before, const Interrupts& after, const std::map<std::string, std::string>& nics,
                    double interval_s, const std::string& proc_root) {
  Json irqs = Json::array();
  if (before.cpus != after.cpus || interval_s <= 0) return irqs;
  for (const IrqLine& line : after.lines) {
    IrqClass cls = ClassifyIrq(line.name, nics);
    if (cls.kind == IrqKind::kOther) continue;
    auto old = std::find_if(before.lines.begin(), before.lines.end(),
                            [&](const IrqLine& l) { return l.irq == line.irq && l.name == line.name; });
    if (old == before.lines.end() || old->per_cpu.size() != line.per_cpu.size()) continue;
    Json per_s = Json::array();
    bool any = false;
    for (size_t i = 0; i < line.per_cpu.size(); ++i) {
      uint64_t d = line.per_cpu[i] > old->per_cpu[i] ? line.per_cpu[i] - old->per_cpu[i] : 0;
      any = any || d > 0;
      per_s.push_back(RoundTo(static_cast<double>(d) / interval_s, 10));
    }
    if (!any) continue;  // quiet lines would only fill the database
    Json entry = {{"irq", line.irq}, {"name", line.name}, {"kind", IrqKindName(cls.kind)},
                  {"device", cls.device}, {"per_cpu_per_s", std::move(per_s)}};
    AddAffinity(proc_root, line.irq, &entry);
    irqs.push_back(std::move(entry));
  }
  return irqs;
}

Json DisksJson(const std::vector<DiskCounters>& before, const std::vector<DiskCounters>& after,
               const std::vector<std::string>& whole_disks, double interval_s) {
  std::vector<DiskCounters> before_kept, after_kept;
  for (const DiskCounters& d : before)
    if (IsSampledDisk(d, whole_disks)) before_kept.push_back(d);
  for (const DiskCounters& d : after)
    if (IsSampledDisk(d, whole_disks)) after_kept.push_back(d);
  Json disks = Json::array();
  for (const DiskRates& r : DiskDeltas(before_kept, after_kept, interval_s))
    disks.push_back({{"disk", r.name}, {"util_pct", RoundTo(r.util_pct, 10)},
                     {"read_mb_per_s", RoundTo(r.read_mb_per_s, 100)},
                     {"write_mb_per_s", RoundTo(r.write_mb_per_s, 100)}});
  return disks;
}

// Sets the sample's "temperatures" and "fans" (empty without sensors) and adds the chips
// read to `chips`.
void AddSensors(bool read_sensors, std::set<std::string>* chips, Json* sample) {
  Json temps = Json::array(), fans = Json::array();
  if (read_sensors) {
    if (std::optional<SensorReadings> r = ReadSensors()) {
      for (const SensorReading& t : r->temperatures) {
        temps.push_back({{"chip", t.chip}, {"label", t.label}, {"celsius", RoundTo(t.value, 10)}});
        chips->insert(t.chip);
      }
      for (const SensorReading& f : r->fans) {
        fans.push_back({{"chip", f.chip}, {"label", f.label}, {"rpm", RoundTo(f.value, 1)}});
        chips->insert(f.chip);
      }
    }
  }
  (*sample)["temperatures"] = std::move(temps);
  (*sample)["fans"] = std::move(fans);
}

}  // namespace

void TelemetrySampler::TakeSample() {
  State& s = *state_;
  const Clock::time_point before_at = s.last_at;
  std::vector<CpuTicks> cpus_before = std::move(s.cpus);
  Interrupts irq_before = std::move(s.interrupts);
  std::vector<DiskCounters> disks_before = std::move(s.disks);
  const CgroupCpuReading cgroup_before = s.cgroup;
  s.Read(proc_root_);
  const double interval_s = std::chrono::duration<double>(s.last_at - before_at).count();

  Json sample = Json::object();
  sample["t_s"] = RoundTo(std::chrono::duration<double>(s.last_at - s.started).count(), 1000);
  sample["cpus"] = CpusJson(cpus_before, s.cpus);
  sample["cgroup"] = s.cgroup_files ? CgroupCpuJson(*s.cgroup_files, cgroup_before, s.cgroup, interval_s) : Json(nullptr);
  // Interrupt columns follow the header's CPUs.
  sample["interrupt_cpus"] = s.interrupts.cpus;
  sample["interrupts"] = InterruptsJson(irq_before, s.interrupts, s.nics, interval_s, proc_root_);
  std::optional<uint64_t> cache = PageCacheBytes(ReadFileText(proc_root_ + "/meminfo").value_or(""));
  sample["page_cache_bytes"] = OrNullJson(cache);
  sample["disks"] = DisksJson(disks_before, s.disks, s.whole_disks, interval_s);
  AddSensors(s.read_sensors, &s.sensor_chips, &sample);

  {
    std::lock_guard lock(mutex_);
    samples_.push_back(sample);
  }
  if (on_sample_) on_sample_(sample);
}

nlohmann::ordered_json TelemetrySampler::Stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  Json out = Json::object();
  if (interval_ms_ % 1000 == 0) out["interval_s"] = interval_ms_ / 1000;
  else out["interval_s"] = interval_ms_ / 1000.0;
  {
    std::lock_guard lock(mutex_);
    out["samples"] = samples_;
  }
  std::string sensors;
  if (state_)
    for (const std::string& chip : state_->sensor_chips) sensors += (sensors.empty() ? "" : ", ") + chip;
  if (sensors.empty()) sensors = "no sensors";
  Json with_sensors = out;
  with_sensors["sensors"] = sensors;
  out["summary"] = summarise_ ? summarise_(with_sensors) : std::vector<std::string>();
  out["sensors"] = sensors;
  return out;
}

}  // namespace nasperf::sysinfo::telemetry
