// The "allowed_devices" list of the agent's Inventory reply, both ways, checked on decode.
#include "wire/agent_devices.h"

#include "wire/messages.h"

namespace nasperf {
namespace {

using nlohmann::json;

Status Bad(const std::string& what) { return Status::BadInput("Inventory: \"allowed_devices\": " + what); }

bool ShortString(const json& j, const char* key) {
  return j.contains(key) && j.at(key).is_string() && j.at(key).get_ref<const std::string&>().size() <= kMaxDirBytes;
}

bool Whole(const json& j, const char* key, uint64_t low, uint64_t high) {
  if (!j.contains(key)) return false;
  const json& v = j.at(key);
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0)) return false;
  return v.get<uint64_t>() >= low && v.get<uint64_t>() <= high;
}

}  // namespace

json AgentDevicesToJson(const std::vector<AgentDevice>& devices) {
  json out = json::array();
  for (const AgentDevice& d : devices)
    out.push_back({{"path", d.path},
                   {"name", d.name},
                   {"size_bytes", d.size_bytes},
                   {"logical_block_bytes", d.logical_block_bytes},
                   {"allowed_by", d.allowed_by}});
  return out;
}

Result<std::vector<AgentDevice>> AgentDevicesFromInventory(const json& payload) {
  std::vector<AgentDevice> out;
  if (!payload.is_object() || !payload.contains("allowed_devices")) return out;
  const json& list = payload.at("allowed_devices");
  if (!list.is_array() || list.size() > kMaxAgentDevices)
    return Bad("must be an array of at most " + std::to_string(kMaxAgentDevices) + " devices");
  for (const json& d : list) {
    if (!d.is_object() || !ShortString(d, "path") || !ShortString(d, "name"))
      return Bad("each device needs a \"path\" and a \"name\" (strings of at most 4096 bytes)");
    if (!Whole(d, "size_bytes", 0, UINT64_MAX) || !Whole(d, "logical_block_bytes", 1, 65536))
      return Bad("each device needs a whole \"size_bytes\" and a \"logical_block_bytes\" of 1..65536");
    AgentDevice device;
    device.path = d.at("path").get<std::string>();
    if (device.path.empty() || device.path.front() != '/') return Bad("a device \"path\" must be absolute");
    device.name = d.at("name").get<std::string>();
    device.size_bytes = d.at("size_bytes").get<uint64_t>();
    device.logical_block_bytes = static_cast<uint32_t>(d.at("logical_block_bytes").get<uint64_t>());
    if (d.contains("allowed_by") && d.at("allowed_by").is_string() &&
        d.at("allowed_by").get_ref<const std::string&>().size() <= kMaxWordBytes)
      device.allowed_by = d.at("allowed_by").get<std::string>();
    out.push_back(std::move(device));
  }
  return out;
}

}  // namespace nasperf
