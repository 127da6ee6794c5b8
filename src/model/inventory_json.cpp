// InventoryToJson / InventoryFromJson: the inventory structs to and from the stored document.
#include "model/inventory_json.h"

#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "model/json_fields.h"

namespace nasperf {

using nlohmann::ordered_json;

namespace {

ordered_json Os(const OsFacts& os) {
  ordered_json j;
  j["pretty_name"] = OrNullJson(os.pretty_name);
  j["kernel"] = OrNullJson(os.kernel);
  j["arch"] = OrNullJson(os.arch);
  return j;
}

ordered_json Fs(const FsFacts& fs) {
  ordered_json j;
  j["type"] = OrNullJson(fs.type);
  j["mount_point"] = OrNullJson(fs.mount_point);
  j["mount_options"] = OrNullJson(fs.mount_options);
  j["source"] = OrNullJson(fs.source);
  j["free_bytes"] = OrNullJson(fs.free_bytes);
  j["total_bytes"] = OrNullJson(fs.total_bytes);
  return j;
}

ordered_json Network(const NetworkPath& network) {
  ordered_json j;
  j["server"] = OrNullJson(network.server);
  j["address"] = OrNullJson(network.address);
  j["local_address"] = OrNullJson(network.local_address);
  j["nic"] = network.nic ? InventoryToJson(*network.nic) : ordered_json(nullptr);
  return j;
}

// --- reading: every accessor answers "unknown" for a missing, null or wrong-typed value.

const ordered_json& At(const ordered_json& j, const char* key) {
  static const ordered_json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::optional<std::string> Str(const ordered_json& j, const char* key) {
  const ordered_json& v = At(j, key);
  return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
}

std::optional<bool> Bool(const ordered_json& j, const char* key) {
  const ordered_json& v = At(j, key);
  return v.is_boolean() ? std::optional<bool>(v.get<bool>()) : std::nullopt;
}

// An integer that fits T; floats and out-of-range values are unknown.
template <typename T>
std::optional<T> Int(const ordered_json& j, const char* key) {
  const ordered_json& v = At(j, key);
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
    return static_cast<T>(u);
  }
  if (v.is_number_integer()) {
    int64_t i = v.get<int64_t>();
    if (std::is_unsigned_v<T> && i < 0) return std::nullopt;
    return static_cast<T>(i);
  }
  return std::nullopt;
}

std::vector<std::string> StrList(const ordered_json& j, const char* key) {
  std::vector<std::string> out;
  const ordered_json& v = At(j, key);
  if (!v.is_array()) return out;
  for (const ordered_json& element : v) {
    if (element.is_string()) out.push_back(element.get<std::string>());
  }
  return out;
}

NicFacts ReadNic(const ordered_json& j) {
  NicFacts nic;
  nic.name = Str(j, "name");
  nic.driver = Str(j, "driver");
  nic.speed_mbps = Int<int64_t>(j, "speed_mbps");
  nic.mtu = Int<int64_t>(j, "mtu");
  nic.duplex = Str(j, "duplex");
  nic.operstate = Str(j, "operstate");
  nic.bus = Str(j, "bus");
  nic.rated_mbps = Int<int64_t>(j, "rated_mbps");
  return nic;
}

HostInventory ReadHost(const ordered_json& j) {
  HostInventory host;
  host.hostname = Str(j, "hostname");
  const ordered_json& cpu = At(j, "cpu");
  host.cpu.model = Str(cpu, "model");
  host.cpu.cores_logical = Int<int64_t>(cpu, "cores_logical");
  host.cpu.cores_physical = Int<int64_t>(cpu, "cores_physical");
  host.cpu.governor = Str(cpu, "governor");
  host.cpu.mhz_max = Int<int64_t>(cpu, "mhz_max");
  const ordered_json& memory = At(j, "memory");
  host.memory.total_bytes = Int<uint64_t>(memory, "total_bytes");
  host.memory.page_cache_bytes = Int<uint64_t>(memory, "page_cache_bytes");
  host.memory.available_bytes = Int<uint64_t>(memory, "available_bytes");
  const ordered_json& os = At(j, "os");
  host.os.pretty_name = Str(os, "pretty_name");
  host.os.kernel = Str(os, "kernel");
  host.os.arch = Str(os, "arch");
  const ordered_json& nics = At(j, "nics");
  if (nics.is_array()) {
    for (const ordered_json& nic : nics) host.nics.push_back(ReadNic(nic));
  }
  return host;
}

BlockDevice ReadDevice(const ordered_json& j) {
  BlockDevice d;
  d.name = Str(j, "name");
  d.kind = Str(j, "kind");
  d.model = Str(j, "model");
  d.size_bytes = Int<int64_t>(j, "size_bytes");
  d.rotational = Bool(j, "rotational");
  d.scheduler = Str(j, "scheduler");
  d.logical_block_bytes = Int<int64_t>(j, "logical_block_bytes");
  d.physical_block_bytes = Int<int64_t>(j, "physical_block_bytes");
  d.backing_file = Str(j, "backing_file");
  d.slaves = StrList(j, "slaves");
  d.controller_driver = Str(j, "controller_driver");
  d.link = Str(j, "link");
  return d;
}

RaidFacts ReadRaid(const ordered_json& j) {
  RaidFacts raid;
  raid.kind = Str(j, "kind");
  raid.level = Str(j, "level");
  raid.metadata_level = Str(j, "metadata_level");
  raid.members = StrList(j, "members");
  raid.degraded_devices = Int<int64_t>(j, "degraded_devices");
  raid.chunk_bytes = Int<int64_t>(j, "chunk_bytes");
  return raid;
}

NetworkPath ReadNetwork(const ordered_json& j) {
  NetworkPath network;
  network.server = Str(j, "server");
  network.address = Str(j, "address");
  network.local_address = Str(j, "local_address");
  if (At(j, "nic").is_object()) network.nic = ReadNic(At(j, "nic"));
  return network;
}

TargetInventory ReadTarget(const ordered_json& j) {
  TargetInventory target;
  target.path = Str(j, "path");
  target.kind = Str(j, "kind");
  const ordered_json& fs = At(j, "fs");
  target.fs.type = Str(fs, "type");
  target.fs.mount_point = Str(fs, "mount_point");
  target.fs.mount_options = Str(fs, "mount_options");
  target.fs.source = Str(fs, "source");
  target.fs.free_bytes = Int<uint64_t>(fs, "free_bytes");
  target.fs.total_bytes = Int<uint64_t>(fs, "total_bytes");
  const ordered_json& devices = At(j, "devices");
  if (devices.is_array()) {
    for (const ordered_json& device : devices) target.devices.push_back(ReadDevice(device));
  }
  if (At(j, "raid").is_object()) target.raid = ReadRaid(At(j, "raid"));
  if (At(j, "network").is_object()) target.network = ReadNetwork(At(j, "network"));
  return target;
}

}  // namespace

ordered_json InventoryToJson(const CpuFacts& cpu) {
  ordered_json j;
  j["model"] = OrNullJson(cpu.model);
  j["cores_logical"] = OrNullJson(cpu.cores_logical);
  j["cores_physical"] = OrNullJson(cpu.cores_physical);
  j["governor"] = OrNullJson(cpu.governor);
  j["mhz_max"] = OrNullJson(cpu.mhz_max);
  return j;
}

ordered_json InventoryToJson(const MemoryFacts& memory) {
  ordered_json j;
  j["total_bytes"] = OrNullJson(memory.total_bytes);
  j["page_cache_bytes"] = OrNullJson(memory.page_cache_bytes);
  j["available_bytes"] = OrNullJson(memory.available_bytes);
  return j;
}

ordered_json InventoryToJson(const NicFacts& nic) {
  ordered_json j;
  j["name"] = OrNullJson(nic.name);
  j["driver"] = OrNullJson(nic.driver);
  j["speed_mbps"] = OrNullJson(nic.speed_mbps);
  j["mtu"] = OrNullJson(nic.mtu);
  j["duplex"] = OrNullJson(nic.duplex);
  j["operstate"] = OrNullJson(nic.operstate);
  j["bus"] = OrNullJson(nic.bus);
  j["rated_mbps"] = OrNullJson(nic.rated_mbps);
  return j;
}

ordered_json InventoryToJson(const std::vector<NicFacts>& nics) {
  ordered_json j = ordered_json::array();
  for (const NicFacts& nic : nics) j.push_back(InventoryToJson(nic));
  return j;
}

ordered_json InventoryToJson(const HostInventory& host) {
  ordered_json j;
  j["hostname"] = OrNullJson(host.hostname);
  j["cpu"] = InventoryToJson(host.cpu);
  j["memory"] = InventoryToJson(host.memory);
  j["os"] = Os(host.os);
  j["nics"] = InventoryToJson(host.nics);
  return j;
}

ordered_json InventoryToJson(const BlockDevice& device) {
  ordered_json j;
  j["name"] = OrNullJson(device.name);
  j["kind"] = OrNullJson(device.kind);
  j["model"] = OrNullJson(device.model);
  j["size_bytes"] = OrNullJson(device.size_bytes);
  j["rotational"] = OrNullJson(device.rotational);
  j["scheduler"] = OrNullJson(device.scheduler);
  j["logical_block_bytes"] = OrNullJson(device.logical_block_bytes);
  j["physical_block_bytes"] = OrNullJson(device.physical_block_bytes);
  j["backing_file"] = OrNullJson(device.backing_file);
  j["slaves"] = StringsJson(device.slaves);
  j["controller_driver"] = OrNullJson(device.controller_driver);
  j["link"] = OrNullJson(device.link);
  return j;
}

ordered_json InventoryToJson(const std::vector<BlockDevice>& devices) {
  ordered_json j = ordered_json::array();
  for (const BlockDevice& device : devices) j.push_back(InventoryToJson(device));
  return j;
}

ordered_json InventoryToJson(const RaidFacts& raid) {
  ordered_json j;
  j["kind"] = OrNullJson(raid.kind);
  j["level"] = OrNullJson(raid.level);
  j["metadata_level"] = OrNullJson(raid.metadata_level);
  j["members"] = StringsJson(raid.members);
  j["degraded_devices"] = OrNullJson(raid.degraded_devices);
  j["chunk_bytes"] = OrNullJson(raid.chunk_bytes);
  return j;
}

ordered_json InventoryToJson(const TargetInventory& target) {
  ordered_json j;
  j["path"] = OrNullJson(target.path);
  j["kind"] = OrNullJson(target.kind);
  j["fs"] = Fs(target.fs);
  j["devices"] = InventoryToJson(target.devices);
  j["raid"] = target.raid ? InventoryToJson(*target.raid) : ordered_json(nullptr);
  j["network"] = target.network ? Network(*target.network) : ordered_json(nullptr);
  return j;
}

ordered_json InventoryToJson(const Inventory& inventory) {
  ordered_json j = ordered_json::object();
  if (inventory.host) j["host"] = InventoryToJson(*inventory.host);
  if (inventory.target) j["target"] = InventoryToJson(*inventory.target);
  return j;
}

Inventory InventoryFromJson(const ordered_json& document) {
  Inventory inventory;
  if (At(document, "host").is_object()) inventory.host = ReadHost(At(document, "host"));
  if (At(document, "target").is_object()) inventory.target = ReadTarget(At(document, "target"));
  return inventory;
}

}  // namespace nasperf
