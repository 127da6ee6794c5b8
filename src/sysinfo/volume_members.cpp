// The member devices of a target's volume, from the inventory's RAID facts and device walk.
#include "sysinfo/volume_members.h"

#include <algorithm>
#include <set>

namespace nasperf::sysinfo {
namespace {

const BlockDevice* Named(const std::vector<BlockDevice>& devices, const std::string& name) {
  for (const BlockDevice& d : devices)
    if (d.name == name) return &d;
  return nullptr;
}

// dm and md devices stand for the devices under them; `seen` ends a cycle in bad data.
void AddMember(const std::vector<BlockDevice>& devices, const std::string& name, std::set<std::string>& seen,
               std::vector<std::string>& out) {
  if (!seen.insert(name).second) return;
  const BlockDevice* d = Named(devices, name);
  const bool stacked = d && d->kind && (*d->kind == "dm" || *d->kind == "md") && !d->slaves.empty();
  if (!stacked) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    return;
  }
  for (const std::string& slave : d->slaves) AddMember(devices, slave, seen, out);
}

}  // namespace

std::vector<std::string> VolumeMembers(const TargetInventory& target) {
  std::vector<std::string> tops;
  if (target.raid && !target.raid->members.empty()) {
    tops = target.raid->members;
  } else if (!target.devices.empty() && target.devices.front().name) {
    tops.push_back(*target.devices.front().name);
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& name : tops) AddMember(target.devices, name, seen, out);
  return out;
}

}  // namespace nasperf::sysinfo
