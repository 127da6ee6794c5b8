// A diagnosis as data (issue 17): the evidence `nasperf diagnose` measured layer by layer,
// and what the rules (src/diagnose/) concluded from it — the waterfall of ceilings, the
// layer that caps the end-to-end figure, the named causes with their evidence, and what
// could not be measured. The orchestrator (cli/diagnose_command.cpp) fills Evidence, the
// rules turn it into a Diagnosis, model/diagnosis_json.h is its one JSON codec (the
// document, `--json` and the store alike), report/ draws it. MB/s = 10^6 B/s of payload.
// An unknown fact is nullopt, never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf {

// One measured figure of one layer: read and/or write MB/s, and the stored runs it came from.
struct LayerFigure {
  std::optional<double> read_mb_per_s;
  std::optional<double> write_mb_per_s;
  std::optional<double> read_iops;   // random steps
  std::optional<double> write_iops;
  std::vector<int64_t> run_ids;      // the stored runs (tagged diagnosis=dN) behind it
  bool cached = false;               // a cache served it (above the link or the disks): not a ceiling
  // Every read step behind read_mb_per_s ran O_DIRECT or had its cold-read check find the
  // file not resident: a cache cannot be inferred from its figure (issue 33).
  bool read_checked_uncached = false;
  bool operator==(const LayerFigure&) const = default;
};

// How one CPU was used at the busiest second of a step (from 1 Hz telemetry, or the
// client's own /proc/stat over the step).
struct CpuPeak {
  int64_t cpu = -1;           // -1: all CPUs together
  double busy_pct = 0;        // 100 - idle - iowait
  double softirq_pct = 0;
  double irq_pct = 0;
  bool operator==(const CpuPeak&) const = default;
};

// Where one interrupt line's interrupts landed during the steps (telemetry's per-CPU counts).
struct IrqLanding {
  std::string irq;            // "24"
  std::string name;           // "virtio0-input.0", "ahci[0000:00:1f.2]"
  std::string kind;           // "nic" | "disk"
  std::optional<std::string> device;  // "eth0" (nic, when known)
  int64_t top_cpu = -1;       // the CPU that took most of them
  double top_share = 0;       // its share of the line's interrupts, 0..1
  uint64_t count = 0;         // interrupts counted over the steps
  std::optional<std::string> smp_affinity;  // /proc/irq/N/smp_affinity, e.g. "1"
  bool operator==(const IrqLanding&) const = default;
};

// One end of the path: the client or the NAS.
struct HostEvidence {
  bool measured = false;             // false: nothing of this end was gathered (no agent)
  std::optional<std::string> hostname;
  std::optional<int64_t> cores_logical;
  std::optional<NicFacts> nic;       // the interface on the path to the other end
  std::optional<std::string> nic_bus;  // "pci 0000:02:00.0", "usb", "virtual"
  std::optional<int64_t> nic_rated_mbps;  // the highest speed the NIC supports, when known
  std::optional<CpuPeak> cpu_all;    // all CPUs together at the busiest second of any step
  std::optional<CpuPeak> cpu_top;    // the busiest single CPU at that second
  std::vector<CpuPeak> cpus;         // every CPU at that second
  std::vector<IrqLanding> irqs;      // NIC and disk interrupt lines
  // The CPU of the cgroup the host's telemetry sampler ran in — on a NAS whose services run
  // in a container (or the lab's namespace) the services' own, where /proc/stat is the
  // whole machine's — at that cgroup's most throttled second of the steps (ties to the
  // higher use). All nullopt when the sampler sat in the root cgroup with no quota.
  std::optional<std::string> cgroup_path;    // "/nasperf-lab", as /proc/self/cgroup names it
  std::optional<double> cgroup_quota_cpus;   // cfs_quota_us / cfs_period_us (v2 cpu.max); nullopt: unlimited
  std::optional<double> cgroup_usage_cpus;   // CPU-seconds used per second (cpuacct.usage, v2 usage_usec)
  std::optional<double> cgroup_throttled_pct;  // % of its periods throttled (cpu.stat nr_throttled / nr_periods)
  bool operator==(const HostEvidence&) const = default;
};

// A member's raw sequential read: requests of 512 KiB, one at a time (psync). A 1 MiB
// buffer whose 4 KiB pages lie scattered in memory reaches a loop device as more than the
// 128 segments its queue takes, is split in two, and a throttled member (the lab's) then
// charges it twice: how often depended on how fragmented memory was, so 20 MB/s members
// read 16.7 and 18.6 MB/s in one run (2026-12-02, lab.diagnose). No request of 512 KiB is
// split; a real disk splits above its max_sectors_kb (often 512 KiB) anyway.
inline constexpr uint64_t kMemberReadBytes = 512 << 10;
inline constexpr const char* kMemberReadLabel = "512K";

// One member device of the NAS's volume, read raw and read-only through the agent.
struct MemberEvidence {
  std::string device;                     // "/dev/loop3"
  std::optional<std::string> model;
  std::optional<std::string> driver;      // the storage controller's driver: "ahci", "ata_piix", "loop"
  std::optional<std::string> link;        // "SATA 3.0 Gbit/s" when the controller says
  LayerFigure seq;                        // kMemberReadBytes sequential read
  LayerFigure rand;                       // 4k random read (IOPS)
  bool operator==(const MemberEvidence&) const = default;
};

struct NetEvidence {
  bool measured = false;
  std::optional<double> up_1_mb_per_s, up_4_mb_per_s;      // client -> NAS, 1 and 4 streams
  std::optional<double> down_1_mb_per_s, down_4_mb_per_s;  // NAS -> client
  std::optional<uint64_t> retransmits;    // TCP segments retransmitted over all up steps
  std::optional<uint64_t> segments_sent;  // the data segments those steps sent; none when uncounted
  std::optional<double> retransmit_pct;   // retransmits of segments_sent
  std::vector<int64_t> run_ids;
  bool operator==(const NetEvidence&) const = default;
};

struct Evidence {
  std::string target;                     // as named, password redacted
  std::string target_kind;                // "smb", "nfs", "iscsi", "path"
  std::string mode;                       // "quick" | "default" | "full"
  bool agent = false;                     // an agent answered
  HostEvidence client, nas;
  // The client's own ceiling: `null:` through the same engine, and its CPU cost per I/O.
  LayerFigure client_ceiling;
  std::optional<double> client_cpu_us_per_io;
  // nasperf's own process (its rusage) as a share of all the client's CPUs, at the busiest
  // target step: not the machine's other processes (client.cpu_all, from the client's own
  // sampler around the protocol steps, is).
  std::optional<double> client_cpu_busy_pct;
  // The NAS's storage.
  std::optional<RaidFacts> raid;          // the volume's RAID (md, btrfs), members named
  std::optional<std::string> volume_fs;   // "btrfs", "ext4"
  std::vector<MemberEvidence> members;
  LayerFigure volume_seq;                 // run --on: 1M sequential write and read on the volume
  LayerFigure volume_rand;                // run --on: 4k random
  NetEvidence net;
  // The target itself, end to end.
  LayerFigure protocol_seq;               // 1M sequential write and read
  LayerFigure protocol_rand;              // 4k random
  // What was negotiated: ("dialect", "3.1.1"), ("signing", "on"), ("rsize", "1 MiB") ...
  std::optional<std::string> protocol_label;  // "SMB 3.1.1"
  std::vector<std::pair<std::string, std::string>> negotiated;
  std::vector<std::string> not_measured;  // "NAS disks: no agent", one line per gap
  // `diagnose --line-rate`: the path's line rate as the user stated it (Mbit/s), for links
  // whose NICs cannot say (a veth reports 10000 whatever shapes it). Used instead of the
  // NICs' speeds and always labelled "stated".
  std::optional<int64_t> stated_line_rate_mbps;
  bool operator==(const Evidence&) const = default;
};

// One bar of the waterfall: a layer's measured ceiling.
struct WaterfallRow {
  std::string layer;                      // "client", "NAS disks", "NAS volume", "network", "protocol"
  std::string what;                       // "read, 1 stream" — what the figure is
  std::optional<double> mb_per_s;         // nullopt: not measured (the row says why in `note`)
  std::optional<double> pct_of_line_rate;
  std::optional<double> pct_of_payload_max;  // of the TCP payload maximum for the MTU
  bool cached = false;                    // left out of the cap: a cache served it
  bool caps = false;                      // this row is the cap
  std::string note;
  bool operator==(const WaterfallRow&) const = default;
};

// One named cause: a rule that fired on measured evidence.
struct Cause {
  std::string rule;                       // stable id: "link-below-rating", "mtu-mismatch" ...
  std::string layer;                      // the layer it blames
  std::string summary;                    // one sentence: "the link path caps at 64 MB/s, 51 % of 1 GbE; ..."
  std::vector<std::string> evidence;      // the measured facts, one line each, with units
  bool operator==(const Cause&) const = default;
};

struct Diagnosis {
  int64_t id = 0;                         // the store's diagnosis id (dN); 0 until stored
  std::string started_at;                 // UTC ISO 8601
  std::string command_line;               // passwords redacted
  Evidence evidence;
  std::optional<int64_t> line_rate_mbps;  // the path's negotiated link speed (lower end)
  std::optional<double> line_rate_mb_per_s;   // line rate / 8
  std::optional<double> payload_max_mb_per_s; // TCP payload maximum for the path's MTU
  std::optional<double> end_to_end_mb_per_s;  // the protocol's best uncached sequential figure
  std::string end_to_end_direction;           // "read" | "write": which that figure is; "" without one
  std::vector<WaterfallRow> waterfall;
  std::string cap_layer;                  // the layer that caps end to end; "" when unknown
  // The protocol below kLinkCapProtocolRatio of the network near its line rate: how far
  // short, in % of the network's figure. The network is then the lowest layer, not a proven
  // cap, and nothing measured explains the rest (diagnose/diagnose.cpp).
  std::optional<double> unexplained_shortfall_pct;
  std::vector<Cause> causes;
  std::vector<std::string> not_measured;  // what would be needed for the rest
  bool partial = false;                   // a step failed or Ctrl-C
  std::string error;
  // One sentence for the top of the table: the first cause's summary, or what caps and how
  // close to the line rate ("the link is the cap: 117 MB/s, 94 % of 1 GbE ...").
  std::string summary;
  // Where line_rate_mbps came from: "nic" (the lower negotiated speed of the two ends),
  // "stated" (--line-rate), "" when not known.
  std::string line_rate_source;
  bool operator==(const Diagnosis&) const = default;
};

}  // namespace nasperf
