// Parsers of /proc/stat, /proc/interrupts, /proc/diskstats and /proc/meminfo for telemetry.
#include "sysinfo/telemetry/proc_parsers.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "sysinfo/host_parsers.h"
#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo::telemetry {
namespace {

template <typename F>
void ForEachLine(std::string_view text, F&& f) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    f(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<uint64_t> ToU64(std::string_view s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "virtio2-input.0" -> true for prefix "virtio" and middle "-input".
bool VirtioWith(std::string_view name, std::string_view middle) {
  if (!StartsWith(name, "virtio")) return false;
  size_t i = 6;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return i > 6 && name.substr(i, middle.size()) == middle;
}

// The name starts with `prefix` followed by a digit, '-', '_', '[', ':' or the end: "igb" matches
// "igb-eth0" but "igbx" does not.
bool DriverPrefix(std::string_view name, std::string_view prefix) {
  if (!StartsWith(name, prefix)) return false;
  if (name.size() == prefix.size()) return true;
  char c = name[prefix.size()];
  return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '[' || c == ':' || c == '@';
}

}  // namespace

std::vector<CpuTicks> ParseProcStat(std::string_view text) {
  std::vector<CpuTicks> out;
  ForEachLine(text, [&](std::string_view line) {
    std::vector<std::string_view> f = Fields(line);
    if (f.size() < 5 || f[0].size() <= 3 || !StartsWith(f[0], "cpu") || !AllDigits(f[0].substr(3))) return;
    CpuTicks t;
    t.cpu = static_cast<int>(*ToU64(f[0].substr(3)));
    uint64_t* slots[] = {&t.user, &t.nice, &t.system, &t.idle, &t.iowait, &t.irq, &t.softirq, &t.steal};
    for (size_t i = 0; i < 8 && i + 1 < f.size(); ++i) {
      std::optional<uint64_t> v = ToU64(f[i + 1]);
      if (!v) return;
      *slots[i] = *v;
    }
    out.push_back(t);
  });
  return out;
}

std::vector<CpuPercent> CpuDeltas(const std::vector<CpuTicks>& before, const std::vector<CpuTicks>& after) {
  std::vector<CpuPercent> out;
  for (const CpuTicks& a : after) {
    auto b = std::find_if(before.begin(), before.end(), [&](const CpuTicks& x) { return x.cpu == a.cpu; });
    if (b == before.end()) continue;
    // Counters of a CPU that went offline and back may restart; clamp to zero.
    auto d = [](uint64_t x, uint64_t y) { return y > x ? static_cast<double>(y - x) : 0.0; };
    double user = d(b->user, a.user) + d(b->nice, a.nice), system = d(b->system, a.system);
    double idle = d(b->idle, a.idle), iowait = d(b->iowait, a.iowait), irq = d(b->irq, a.irq);
    double softirq = d(b->softirq, a.softirq), steal = d(b->steal, a.steal);
    double total = user + system + idle + iowait + irq + softirq + steal;
    CpuPercent p;
    p.cpu = a.cpu;
    if (total <= 0) {
      p.idle = 100;
    } else {
      p.user = 100 * user / total;
      p.system = 100 * system / total;
      p.idle = 100 * idle / total;
      p.iowait = 100 * iowait / total;
      p.irq = 100 * irq / total;
      p.softirq = 100 * softirq / total;
      p.steal = 100 * steal / total;
      p.busy = std::max(0.0, 100 - p.idle - p.iowait);
    }
    out.push_back(p);
  }
  return out;
}

Interrupts ParseInterrupts(std::string_view text) {
  Interrupts out;
  bool header = true;
  ForEachLine(text, [&](std::string_view line) {
    std::vector<std::string_view> f = Fields(line);
    if (f.empty()) return;
    if (header) {
      header = false;
      for (std::string_view c : f)
        if (StartsWith(c, "CPU") && AllDigits(c.substr(3))) out.cpus.push_back(static_cast<int>(*ToU64(c.substr(3))));
      if (!out.cpus.empty()) return;
    }
    if (f[0].size() < 2 || f[0].back() != ':' || !AllDigits(f[0].substr(0, f[0].size() - 1))) return;
    IrqLine irq;
    irq.irq = std::string(f[0].substr(0, f[0].size() - 1));
    size_t i = 1;
    for (; i < f.size() && irq.per_cpu.size() < out.cpus.size(); ++i) {
      std::optional<uint64_t> v = ToU64(f[i]);
      if (!v) break;
      irq.per_cpu.push_back(*v);
    }
    if (irq.per_cpu.empty()) return;
    // The rest is "chip hwirq-trigger name[, name...]" ("IO-APIC 2-edge timer",
    // "PCI-MSIX-0000:00:03.0 1-edge virtio2-input.0"). The name follows the trigger token;
    // without one (other architectures' formats) it is the last field.
    size_t name_from = f.size() - 1;
    for (size_t j = i; j < f.size(); ++j) {
      std::string_view t = f[j];
      if (t.ends_with("-edge") || t.ends_with("-level") || t.ends_with("-fasteoi") || t == "Edge" || t == "Level")
        name_from = j + 1;
    }
    if (name_from < i || name_from >= f.size()) name_from = f.size() - 1;
    if (name_from < i) return;  // counts only: no name
    for (size_t j = name_from; j < f.size(); ++j) {
      if (!irq.name.empty()) irq.name += ' ';
      irq.name += f[j];
    }
    out.lines.push_back(std::move(irq));
  });
  return out;
}

IrqClass ClassifyIrq(std::string_view name, const std::map<std::string, std::string>& nics) {
  // A shared line ("i801_smbus, eth0") belongs to each of its names; a NIC or disk among them decides.
  IrqClass out;
  size_t start = 0;
  while (start < name.size()) {
    size_t comma = name.find(',', start);
    std::string one = Trim(name.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    start = comma == std::string_view::npos ? name.size() : comma + 1;
    std::string_view n = one;
    for (const auto& [prefix, interface] : nics) {
      if (prefix.empty() || prefix == "lo" || !StartsWith(n, prefix)) continue;
      if (n.size() == prefix.size() || std::string_view("-_:@[ ").find(n[prefix.size()]) != std::string_view::npos)
        return {IrqKind::kNic, interface};
    }
    bool nic = false, disk = false;
    for (std::string_view p : {"eth", "enp", "ens", "eno", "enx", "mlx", "igb", "e1000", "ixgbe", "r8169", "i40e",
                               "ice", "bnxt", "tg3", "atl1", "alx", "ena", "vmxnet"})
      if (DriverPrefix(n, p)) nic = true;
    if (VirtioWith(n, "-input") || VirtioWith(n, "-output")) nic = true;
    for (std::string_view p : {"ahci", "nvme", "megasas", "mpt", "sata", "ata_piix", "pata", "aacraid", "hpsa",
                               "smartpqi", "mvsas", "isci"})
      if (DriverPrefix(n, p)) disk = true;
    if (StartsWith(n, "sata_") || StartsWith(n, "mpt")) disk = true;
    if (VirtioWith(n, "-req") || VirtioWith(n, "-blk") || StartsWith(n, "virtio_blk")) disk = true;
    if (nic) {
      // "eth0-TxRx-0" -> "eth0"; "virtio2-input.0" without a known interface -> "virtio2".
      std::string device(n.substr(0, n.find_first_of("-:@[")));
      return {IrqKind::kNic, device};
    }
    if (disk && out.kind == IrqKind::kOther) out = {IrqKind::kDisk, IrqDeviceGroup(n)};
  }
  return out;
}

const char* IrqKindName(IrqKind kind) {
  switch (kind) {
    case IrqKind::kNic: return "nic";
    case IrqKind::kDisk: return "disk";
    default: return "other";
  }
}

std::string IrqDeviceGroup(std::string_view name) {
  std::string n(name);
  if (size_t b = n.find('['); b != std::string::npos && b > 0) n.resize(b);  // ahci[0000:00:1f.2]
  if (StartsWith(n, "nvme")) {  // nvme0q3 -> nvme0
    size_t q = n.find('q', 4);
    if (q != std::string::npos && AllDigits(std::string_view(n).substr(q + 1))) n.resize(q);
  }
  if (size_t dot = n.rfind('.'); dot != std::string::npos && AllDigits(std::string_view(n).substr(dot + 1)))
    n.resize(dot);  // virtio1-req.0 -> virtio1-req
  return n;
}

std::vector<DiskCounters> ParseDiskStats(std::string_view text) {
  std::vector<DiskCounters> out;
  ForEachLine(text, [&](std::string_view line) {
    std::vector<std::string_view> f = Fields(line);
    if (f.size() < 14) return;
    DiskCounters d;
    d.name = std::string(f[2]);
    std::optional<uint64_t> reads = ToU64(f[3]), sr = ToU64(f[5]), writes = ToU64(f[7]), sw = ToU64(f[9]),
                            ticks = ToU64(f[12]);
    if (!reads || !sr || !writes || !sw || !ticks) return;
    d.reads = *reads;
    d.sectors_read = *sr;
    d.writes = *writes;
    d.sectors_written = *sw;
    d.io_ticks_ms = *ticks;
    out.push_back(std::move(d));
  });
  return out;
}

bool IsSampledDisk(const DiskCounters& disk, const std::vector<std::string>& whole_disks) {
  const std::string& n = disk.name;
  if (StartsWith(n, "ram")) return false;
  if ((StartsWith(n, "loop") || StartsWith(n, "zram")) && disk.reads == 0 && disk.writes == 0) return false;
  if (!whole_disks.empty()) return std::find(whole_disks.begin(), whole_disks.end(), n) != whole_disks.end();
  // No /sys/block: partitions by name. nvme0n1p2, mmcblk0p1, loop0p1: "p" + digits after a digit.
  size_t p = n.rfind('p');
  if (p != std::string::npos && p > 0 && std::isdigit(static_cast<unsigned char>(n[p - 1])) &&
      AllDigits(std::string_view(n).substr(p + 1)))
    return false;
  // sda1, vdb2, hda3, xvda1: a letter-named disk followed by digits.
  for (std::string_view prefix : {"sd", "vd", "hd", "xvd"}) {
    if (!StartsWith(n, prefix)) continue;
    size_t i = prefix.size();
    while (i < n.size() && std::isalpha(static_cast<unsigned char>(n[i]))) ++i;
    if (i > prefix.size() && i < n.size()) return false;
  }
  return true;
}

std::vector<DiskRates> DiskDeltas(const std::vector<DiskCounters>& before, const std::vector<DiskCounters>& after,
                                  double interval_s) {
  std::vector<DiskRates> out;
  if (interval_s <= 0) return out;
  auto d = [](uint64_t x, uint64_t y) { return y > x ? static_cast<double>(y - x) : 0.0; };
  for (const DiskCounters& a : after) {
    auto b = std::find_if(before.begin(), before.end(), [&](const DiskCounters& x) { return x.name == a.name; });
    if (b == before.end()) continue;
    DiskRates r;
    r.name = a.name;
    r.util_pct = std::min(100.0, d(b->io_ticks_ms, a.io_ticks_ms) / (interval_s * 1000) * 100);
    r.read_mb_per_s = d(b->sectors_read, a.sectors_read) * 512 / 1e6 / interval_s;
    r.write_mb_per_s = d(b->sectors_written, a.sectors_written) * 512 / 1e6 / interval_s;
    out.push_back(r);
  }
  return out;
}

std::optional<uint64_t> PageCacheBytes(std::string_view meminfo_text) {
  std::map<std::string, uint64_t> m = ParseMemInfo(meminfo_text);
  auto cached = m.find("Cached"), buffers = m.find("Buffers");
  if (cached == m.end() && buffers == m.end()) return std::nullopt;
  return (cached == m.end() ? 0 : cached->second) + (buffers == m.end() ? 0 : buffers->second);
}

}  // namespace nasperf::sysinfo::telemetry
