// Pure parsers of the /proc files telemetry samples (stat, interrupts, diskstats) and the deltas between two readings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nasperf::sysinfo::telemetry {

// One "cpuN" line of /proc/stat, in clock ticks (USER_HZ) since boot.
struct CpuTicks {
  int cpu = -1;
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  uint64_t total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
};
// The per-CPU lines (not the "cpu" total), in file order; lines that do not parse are skipped.
std::vector<CpuTicks> ParseProcStat(std::string_view text);

// Shares of one CPU's time between two readings, in percent (0-100). busy = 100 - idle - iowait
// (iowait is idle time with I/O outstanding; the CPU could have run something else).
struct CpuPercent {
  int cpu = -1;
  double busy = 0, user = 0, system = 0, irq = 0, softirq = 0, iowait = 0, idle = 0, steal = 0;
};
// CPUs present in both readings (matched by number); a CPU with no ticks elapsed is 0 % busy, 100 % idle.
std::vector<CpuPercent> CpuDeltas(const std::vector<CpuTicks>& before, const std::vector<CpuTicks>& after);

// One numbered line of /proc/interrupts ("NMI", "LOC"... are skipped: no device behind them).
struct IrqLine {
  std::string irq;                 // "24"
  std::vector<uint64_t> per_cpu;  // counts since boot, one per CPU column
  std::string name;               // the device part: "virtio2-input.0", "ahci[0000:00:1f.2]", "eth0-TxRx-0"
};
struct Interrupts {
  std::vector<int> cpus;  // the header's CPU numbers ("CPU0 CPU1" -> {0, 1})
  std::vector<IrqLine> lines;
};
Interrupts ParseInterrupts(std::string_view text);

enum class IrqKind { kOther, kNic, kDisk };
const char* IrqKindName(IrqKind kind);  // "nic", "disk", "other"

struct IrqClass {
  IrqKind kind = IrqKind::kOther;
  std::string device;  // NIC: the interface ("eth0") when known; disk: the controller ("ahci", "nvme0")
};
// Classifies an interrupt line's name. `nics` maps what names start with to the network
// interface: each interface under /sys/class/net ("eth0" -> "eth0") and the virtio device
// behind it ("virtio2" -> "eth0"). A name that starts with one of them (then '-', '_', ':',
// '@', '[' or the end) is that NIC. Otherwise known driver patterns decide (eth*, enp*, ens*,
// eno*, virtio*-input/-output, mlx*, igb, e1000, ixgbe, r8169 ... -> NIC; ahci, nvme,
// virtio*-req/-blk, megasas, mpt*, sata*, ata_piix ... -> disk).
IrqClass ClassifyIrq(std::string_view name, const std::map<std::string, std::string>& nics = {});
// The controller a disk interrupt belongs to: "nvme0q3" -> "nvme0", "ahci[0000:00:1f.2]" -> "ahci",
// "virtio1-req.0" -> "virtio1-req"; other names unchanged.
std::string IrqDeviceGroup(std::string_view name);

// One line of /proc/diskstats (fields per Documentation/admin-guide/iostats.rst).
struct DiskCounters {
  std::string name;
  uint64_t reads = 0, sectors_read = 0, writes = 0, sectors_written = 0, io_ticks_ms = 0;
};
std::vector<DiskCounters> ParseDiskStats(std::string_view text);

// Whether a device is worth sampling: not ram*, not a loop or zram device that has never done
// I/O, and not a partition. `whole_disks` is the list under /sys/block (partitions are not
// there); when it is empty a name rule decides (sda1, nvme0n1p1, mmcblk0p1 are partitions).
bool IsSampledDisk(const DiskCounters& disk, const std::vector<std::string>& whole_disks);

struct DiskRates {
  std::string name;
  double util_pct = 0;  // share of the interval the device had I/O in flight (io_ticks)
  double read_mb_per_s = 0, write_mb_per_s = 0;  // 10^6 bytes/s; a sector is 512 bytes
};
// Disks in both readings, over `interval_s` seconds.
std::vector<DiskRates> DiskDeltas(const std::vector<DiskCounters>& before, const std::vector<DiskCounters>& after,
                                  double interval_s);

// Cached + Buffers from /proc/meminfo, in bytes; nullopt when neither is there.
std::optional<uint64_t> PageCacheBytes(std::string_view meminfo_text);

}  // namespace nasperf::sysinfo::telemetry
