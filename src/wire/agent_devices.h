// The block devices an agent lets clients read raw (agent --allow-device,
// --allow-volume-members), as its Inventory reply lists them under "allowed_devices".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

inline constexpr size_t kMaxAgentDevices = 256;

struct AgentDevice {
  std::string path;  // what a client names as TARGET (JobStart.dir): "/dev/loop3"
  std::string name;  // the kernel's name ("loop3"), as the inventory's devices and RAID members name it
  uint64_t size_bytes = 0;
  uint32_t logical_block_bytes = 512;  // the O_DIRECT alignment
  std::string allowed_by;              // "--allow-device" | "--allow-volume-members"
};

nlohmann::json AgentDevicesToJson(const std::vector<AgentDevice>& devices);

// The Inventory payload's "allowed_devices": empty when the key is absent (an agent that
// allows none). BadInput, one line, when it is not an array of at most kMaxAgentDevices
// objects each with an absolute "path" and a "name" of at most kMaxDirBytes, a whole
// "size_bytes" and a "logical_block_bytes" in 1..64 KiB.
Result<std::vector<AgentDevice>> AgentDevicesFromInventory(const nlohmann::json& payload);

}  // namespace nasperf
