// NAS telemetry: samples CPU, interrupts, page cache, disks and sensors at 1 Hz while a test runs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace nasperf::sysinfo::telemetry {

// Samples the machine at 1 Hz on its own thread, from `proc_root` (/proc) and `sys_root`
// (/sys) so tests can point it at a fake tree. Sensors come from libsensors (real machine only).
//
// One sample (all rates over the interval since the previous sample):
//   {"t_s": 1,
//    "cpus": [{"cpu": 0, "busy_pct": x, "user_pct": x, "system_pct": x, "irq_pct": x,
//              "softirq_pct": x, "iowait_pct": x, "idle_pct": x}, ...],
//    "cgroup": {"path": "/nasperf-lab", "quota_cpus": 0.02 | null, "usage_cpus": x,
//               "throttled_pct": x, "periods": n, "throttled_periods": n} | null,
//    "interrupts": [{"irq": "24", "name": "virtio0-input.0", "kind": "nic"|"disk",
//                    "device": "eth0" (nic only, when known), "per_cpu_per_s": [n0, n1, ...],
//                    "smp_affinity": "3", "smp_affinity_list": "0-1"}, ...],
//    "page_cache_bytes": N,
//    "disks": [{"disk": "sda", "util_pct": x, "read_mb_per_s": x, "write_mb_per_s": x}, ...],
//    "temperatures": [{"chip": "coretemp-isa-0000", "label": "Package id 0", "celsius": x}, ...],
//    "fans": [{"chip": "...", "label": "fan1", "rpm": x}, ...]}
// Only interrupt lines of NICs and disk controllers are kept. Their affinity is
// /proc/irq/N/smp_affinity (the hex CPU mask) and smp_affinity_list as the kernel writes
// them, read at every sample (irqbalance may move a line mid-run), null when unreadable;
// documents stored before they were added lack both keys. MB/s = 10^6 bytes/s.
// "cgroup" is the sampler's own cgroup's CPU (sysinfo/telemetry/cgroup_cpu.h: the cgroup
// named by <proc_root>/self/cgroup, its v1 cpu + cpuacct files, or v2's cpu.max and cpu.stat
// when only v2 is mounted, under <sys_root>/fs/cgroup): quota_cpus = quota / period (null:
// unlimited), usage_cpus = CPU-seconds used per second of the interval, throttled_pct = % of
// the interval's enforcement periods throttled (periods and throttled_periods their counts;
// null when cpu.stat is unreadable). The agent runs in its NAS services' cgroup, so on a
// containerised NAS this is the services' CPU while "cpus" is the whole machine's. Null when
// the sampler is in the root cgroup with no quota, or no cgroup is readable; documents
// stored before it was added lack the key.
//
// Thread-safety: Start and Stop are called from one thread; `on_sample` runs on the
// sampler's thread and must not call Start/Stop.
class TelemetrySampler {
 public:
  // What Stop() stores as "summary": the series' sentences. Passed in because they are
  // written above this layer (report/telemetry_text.h's SummariseTelemetry).
  using Summariser = std::function<std::vector<std::string>(const nlohmann::json& telemetry)>;

  explicit TelemetrySampler(Summariser summarise, std::string proc_root = "/proc", std::string sys_root = "/sys");
  ~TelemetrySampler();  // stops the thread if still running
  TelemetrySampler(const TelemetrySampler&) = delete;
  TelemetrySampler& operator=(const TelemetrySampler&) = delete;

  // Takes a baseline reading now and starts the thread; the first sample comes 1 s later.
  // `on_sample` (optional) gets each sample as it is taken (the agent streams them).
  void Start(std::function<void(const nlohmann::ordered_json& sample)> on_sample = {});
  // Stops the thread (returns within ~50 ms) and returns
  //   {"interval_s": 1, "samples": [...], "summary": [lines], "sensors": "ok"|"no sensors"}.
  // Calling Stop without Start returns the same shape with no samples.
  nlohmann::ordered_json Stop();

  // Test hook: the sampling interval in milliseconds (default 1000).
  void set_interval_ms_for_tests(int interval_ms) { interval_ms_ = interval_ms; }

 private:
  struct State;
  void Loop();
  void TakeSample();  // one reading, its deltas against the last, appended to the series

  Summariser summarise_;
  std::string proc_root_;
  std::string sys_root_;
  int interval_ms_ = 1000;
  std::function<void(const nlohmann::ordered_json&)> on_sample_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  nlohmann::ordered_json samples_ = nlohmann::ordered_json::array();
  std::string sensors_status_ = "no sensors";
  std::unique_ptr<State> state_;
};

}  // namespace nasperf::sysinfo::telemetry
