// InventoryText: the inventory as aligned, human-readable lines for `nasperf info`.
#include "report/inventory_text.h"

#include <fmt/format.h>

#include "model/inventory_json.h"

namespace nasperf {

namespace {

std::string Text(const std::optional<std::string>& value) { return value ? *value : "unknown"; }

template <typename T>
std::string Text(const std::optional<T>& value) {
  return value ? std::to_string(*value) : "unknown";
}

std::string Text(const std::vector<std::string>& values) {
  std::string joined;
  for (const std::string& value : values) joined += (joined.empty() ? "" : ", ") + value;
  return joined.empty() ? "none" : joined;
}

template <typename T>
std::string Bytes(const std::optional<T>& value) {
  if (!value) return "unknown";
  double bytes = static_cast<double>(*value);
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[unit]);
}

template <typename T>
std::string WithUnit(const std::optional<T>& value, const char* unit) {
  return value ? Text(value) + " " + unit : "unknown";
}

// The bus and the rated speed are printed only when known: documents stored before they
// were gathered lack them, and their lines stay as they were.
std::string NicLine(const NicFacts& nic) {
  std::string line = fmt::format("driver {}, speed {}, MTU {}, duplex {}, state {}", Text(nic.driver),
                                 WithUnit(nic.speed_mbps, "Mb/s"), Text(nic.mtu), Text(nic.duplex),
                                 Text(nic.operstate));
  if (nic.bus) line += ", bus " + *nic.bus;
  if (nic.rated_mbps) line += ", rated " + WithUnit(nic.rated_mbps, "Mb/s");
  return line;
}

std::string DeviceLine(const BlockDevice& d) {
  std::string kind = Text(d.kind);
  if (d.backing_file) kind += " of " + *d.backing_file;
  std::string spin = d.rotational ? (*d.rotational ? "rotational" : "non-rotational") : "rotational unknown";
  std::string line = fmt::format("{} ({}): model {}, {}, {}, scheduler {}, block {}/{} B logical/physical",
                                 Text(d.name), kind, Text(d.model), Bytes(d.size_bytes), spin, Text(d.scheduler),
                                 Text(d.logical_block_bytes), Text(d.physical_block_bytes));
  if (!d.slaves.empty()) line += ", on " + Text(d.slaves);
  if (d.controller_driver) line += ", controller " + *d.controller_driver;  // known ones only, as the NIC's bus
  if (d.link) line += ", link " + *d.link;
  return line;
}

std::string RaidLine(const RaidFacts& raid) {
  if (!raid.kind) return "none found";
  std::string line = Text(raid.kind) + " " + Text(raid.level);
  if (raid.metadata_level) line += " (metadata " + Text(raid.metadata_level) + ")";
  line += ", members " + Text(raid.members);
  if (raid.chunk_bytes) line += ", chunk " + Bytes(raid.chunk_bytes);
  line += ", degraded devices " + Text(raid.degraded_devices);
  return line;
}

void Line(std::string* out, const char* label, const std::string& text) {
  *out += fmt::format("{:<12}{}\n", label, text);
}

// Host, CPU, memory, OS and NIC lines.
void HostLines(const HostInventory& host, std::string* out) {
  Line(out, "Host", Text(host.hostname));
  const CpuFacts& cpu = host.cpu;
  Line(
      out, "CPU",
      fmt::format("{}, {} logical / {} physical cores, governor {}, max clock {}", Text(cpu.model),
                  Text(cpu.cores_logical), Text(cpu.cores_physical), Text(cpu.governor), WithUnit(cpu.mhz_max, "MHz")));
  const MemoryFacts& memory = host.memory;
  Line(out, "Memory",
       fmt::format("{} total, {} in page cache, {} available", Bytes(memory.total_bytes),
                   Bytes(memory.page_cache_bytes), Bytes(memory.available_bytes)));
  Line(out, "OS",
       fmt::format("{}, kernel {} ({})", Text(host.os.pretty_name), Text(host.os.kernel), Text(host.os.arch)));
  for (const NicFacts& nic : host.nics) Line(out, "NIC", Text(nic.name) + ": " + NicLine(nic));
  if (host.nics.empty()) Line(out, "NIC", "none found");
}

// Target, file system, space, device, RAID and network lines.
void TargetLines(const TargetInventory& target, std::string* out) {
  Line(out, "Target", fmt::format("{} ({})", Text(target.path), Text(target.kind)));
  const FsFacts& fs = target.fs;
  if (fs.type) {
    Line(out, "File system",
         fmt::format("{} on {} at {}, options {}", Text(fs.type), Text(fs.source), Text(fs.mount_point),
                     Text(fs.mount_options)));
  }
  if (fs.free_bytes || fs.total_bytes) {
    Line(out, "Space", fmt::format("{} free of {}", Bytes(fs.free_bytes), Bytes(fs.total_bytes)));
  }
  for (const BlockDevice& device : target.devices) Line(out, "Device", DeviceLine(device));
  if (target.raid) Line(out, "RAID", RaidLine(*target.raid));
  if (const std::optional<NetworkPath>& network = target.network) {
    std::string line = fmt::format("server {} ({}) from {}", Text(network->server), Text(network->address),
                                   Text(network->local_address));
    line += network->nic ? " via " + Text(network->nic->name) + ": " + NicLine(*network->nic) : " via an unknown NIC";
    Line(out, "Network", line);
  }
}

}  // namespace

std::string InventoryText(const Inventory& inventory) {
  std::string out;
  if (inventory.host) HostLines(*inventory.host, &out);
  if (inventory.target) TargetLines(*inventory.target, &out);
  return out;
}

std::string InventoryText(const nlohmann::ordered_json& inventory) {
  return InventoryText(InventoryFromJson(inventory));
}

}  // namespace nasperf
