// InventoryText: the inventory as aligned, human-readable lines for `nasperf info`.
#include "report/inventory_text.h"

#include <fmt/format.h>

#include <initializer_list>

namespace nasperf {

using nlohmann::ordered_json;

namespace {

const ordered_json& At(const ordered_json& j, std::initializer_list<const char*> path) {
  static const ordered_json kNull;
  const ordered_json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return kNull;
    node = &(*node)[key];
  }
  return *node;
}

std::string Text(const ordered_json& value) {
  if (value.is_null()) return "unknown";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_array()) {
    std::string joined;
    for (const ordered_json& element : value) joined += (joined.empty() ? "" : ", ") + Text(element);
    return joined.empty() ? "none" : joined;
  }
  return value.dump();
}

std::string Bytes(const ordered_json& value) {
  if (!value.is_number()) return "unknown";
  double bytes = value.get<double>();
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[unit]);
}

std::string WithUnit(const ordered_json& value, const char* unit) {
  return value.is_null() ? "unknown" : Text(value) + " " + unit;
}

std::string NicFacts(const ordered_json& nic) {
  return fmt::format("driver {}, speed {}, MTU {}, duplex {}, state {}", Text(At(nic, {"driver"})),
                     WithUnit(At(nic, {"speed_mbps"}), "Mb/s"), Text(At(nic, {"mtu"})), Text(At(nic, {"duplex"})),
                     Text(At(nic, {"operstate"})));
}

std::string DeviceLine(const ordered_json& d) {
  std::string kind = Text(At(d, {"kind"}));
  if (At(d, {"backing_file"}).is_string()) kind += " of " + At(d, {"backing_file"}).get<std::string>();
  const ordered_json& rotational = At(d, {"rotational"});
  std::string spin =
      rotational.is_boolean() ? (rotational.get<bool>() ? "rotational" : "non-rotational") : "rotational unknown";
  std::string line =
      fmt::format("{} ({}): model {}, {}, {}, scheduler {}, block {}/{} B logical/physical", Text(At(d, {"name"})),
                  kind, Text(At(d, {"model"})), Bytes(At(d, {"size_bytes"})), spin, Text(At(d, {"scheduler"})),
                  Text(At(d, {"logical_block_bytes"})), Text(At(d, {"physical_block_bytes"})));
  const ordered_json& slaves = At(d, {"slaves"});
  if (slaves.is_array() && !slaves.empty()) line += ", on " + Text(slaves);
  return line;
}

std::string RaidLine(const ordered_json& raid) {
  if (At(raid, {"kind"}).is_null()) return "none found";
  std::string line = Text(At(raid, {"kind"})) + " " + Text(At(raid, {"level"}));
  if (!At(raid, {"metadata_level"}).is_null()) line += " (metadata " + Text(At(raid, {"metadata_level"})) + ")";
  line += ", members " + Text(At(raid, {"members"}));
  if (!At(raid, {"chunk_bytes"}).is_null()) line += ", chunk " + Bytes(At(raid, {"chunk_bytes"}));
  line += ", degraded devices " + Text(At(raid, {"degraded_devices"}));
  return line;
}

void Line(std::string* out, const char* label, const std::string& text) {
  *out += fmt::format("{:<12}{}\n", label, text);
}

// Host, CPU, memory, OS and NIC lines.
void HostLines(const ordered_json& host, std::string* out) {
  Line(out, "Host", Text(At(host, {"hostname"})));
  const ordered_json& cpu = At(host, {"cpu"});
  Line(out, "CPU",
       fmt::format("{}, {} logical / {} physical cores, governor {}, max clock {}", Text(At(cpu, {"model"})),
                   Text(At(cpu, {"cores_logical"})), Text(At(cpu, {"cores_physical"})), Text(At(cpu, {"governor"})),
                   WithUnit(At(cpu, {"mhz_max"}), "MHz")));
  const ordered_json& memory = At(host, {"memory"});
  Line(out, "Memory",
       fmt::format("{} total, {} in page cache, {} available", Bytes(At(memory, {"total_bytes"})),
                   Bytes(At(memory, {"page_cache_bytes"})), Bytes(At(memory, {"available_bytes"}))));
  const ordered_json& os = At(host, {"os"});
  Line(out, "OS",
       fmt::format("{}, kernel {} ({})", Text(At(os, {"pretty_name"})), Text(At(os, {"kernel"})),
                   Text(At(os, {"arch"}))));
  const ordered_json& nics = At(host, {"nics"});
  if (nics.is_array() && !nics.empty()) {
    for (const ordered_json& nic : nics) Line(out, "NIC", Text(At(nic, {"name"})) + ": " + NicFacts(nic));
  } else {
    Line(out, "NIC", "none found");
  }
}

// Target, file system, space, device, RAID and network lines.
void TargetLines(const ordered_json& target, std::string* out) {
  Line(out, "Target", fmt::format("{} ({})", Text(At(target, {"path"})), Text(At(target, {"kind"}))));
  const ordered_json& fs = At(target, {"fs"});
  if (!At(fs, {"type"}).is_null()) {
    Line(out, "File system",
         fmt::format("{} on {} at {}, options {}", Text(At(fs, {"type"})), Text(At(fs, {"source"})),
                     Text(At(fs, {"mount_point"})), Text(At(fs, {"mount_options"}))));
  }
  if (!At(fs, {"free_bytes"}).is_null() || !At(fs, {"total_bytes"}).is_null()) {
    Line(out, "Space", fmt::format("{} free of {}", Bytes(At(fs, {"free_bytes"})), Bytes(At(fs, {"total_bytes"}))));
  }
  const ordered_json& devices = At(target, {"devices"});
  if (devices.is_array()) {
    for (const ordered_json& device : devices) Line(out, "Device", DeviceLine(device));
  }
  if (At(target, {"raid"}).is_object()) Line(out, "RAID", RaidLine(At(target, {"raid"})));
  const ordered_json& network = At(target, {"network"});
  if (network.is_object()) {
    std::string line = fmt::format("server {} ({}) from {}", Text(At(network, {"server"})),
                                   Text(At(network, {"address"})), Text(At(network, {"local_address"})));
    const ordered_json& nic = At(network, {"nic"});
    line += nic.is_object() ? " via " + Text(At(nic, {"name"})) + ": " + NicFacts(nic) : " via an unknown NIC";
    Line(out, "Network", line);
  }
}

}  // namespace

std::string InventoryText(const nlohmann::ordered_json& inventory) {
  std::string out;
  const ordered_json& host = At(inventory, {"host"});
  if (host.is_object()) HostLines(host, &out);
  const ordered_json& target = At(inventory, {"target"});
  if (target.is_object()) TargetLines(target, &out);
  return out;
}

}  // namespace nasperf
