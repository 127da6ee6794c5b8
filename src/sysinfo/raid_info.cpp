// Reads md and btrfs RAID facts from sysfs and /proc/mdstat.
#include "sysinfo/raid_info.h"

#include "sysinfo/mdstat.h"
#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

using nlohmann::ordered_json;

ordered_json NoRaid() {
  ordered_json raid;
  raid["kind"] = nullptr;
  raid["level"] = nullptr;
  raid["metadata_level"] = nullptr;
  raid["members"] = ordered_json::array();
  raid["degraded_devices"] = nullptr;
  raid["chunk_bytes"] = nullptr;
  return raid;
}

std::optional<ordered_json> MdRaid(const ordered_json& devices, const std::string& root) {
  const ordered_json* md = nullptr;
  for (const ordered_json& device : devices) {
    if (device.value("kind", "") == "md" && device.contains("name") && device["name"].is_string()) {
      md = &device;
      break;
    }
  }
  if (md == nullptr) return std::nullopt;
  std::string name = (*md)["name"].get<std::string>();
  std::string dir = root + "/sys/block/" + name + "/md";

  std::optional<MdArray> listed;
  if (std::optional<std::string> mdstat = ReadFileText(root + "/proc/mdstat")) {
    for (MdArray& array : ParseMdstat(*mdstat)) {
      if (array.name == name) listed = std::move(array);
    }
  }

  ordered_json raid = NoRaid();
  raid["kind"] = "md";
  std::optional<std::string> level = ReadFirstLine(dir + "/level");
  if (!level && listed) level = listed->level;
  raid["level"] = OrNull(level);
  if (listed && !listed->members.empty()) {
    for (const std::string& member : listed->members) raid["members"].push_back(member);
  } else if (md->contains("slaves") && (*md)["slaves"].is_array()) {
    raid["members"] = (*md)["slaves"];
  }
  std::optional<int64_t> degraded = ReadInt(dir + "/degraded");
  if (!degraded && listed && listed->devices_wanted && listed->devices_working) {
    degraded = *listed->devices_wanted - *listed->devices_working;
  }
  raid["degraded_devices"] = OrNull(degraded);
  std::optional<int64_t> chunk = ReadInt(dir + "/chunk_size");
  if ((!chunk || *chunk <= 0) && listed && listed->chunk_bytes) chunk = static_cast<int64_t>(*listed->chunk_bytes);
  raid["chunk_bytes"] = chunk && *chunk > 0 ? ordered_json(*chunk) : ordered_json(nullptr);
  return raid;
}

std::optional<std::string> BtrfsProfile(const std::string& allocation_dir) {
  static const char* const kProfiles[] = {"single",  "dup",    "raid0", "raid1", "raid1c3",
                                          "raid1c4", "raid10", "raid5", "raid6"};
  std::string found;
  for (const char* profile : kProfiles) {
    if (PathExists(allocation_dir + "/" + profile)) found += (found.empty() ? "" : ",") + std::string(profile);
  }
  if (found.empty()) return std::nullopt;
  return found;
}

ordered_json BtrfsRaid(const std::string& uuid, const std::string& root) {
  std::string dir = root + "/sys/fs/btrfs/" + uuid;
  ordered_json raid = NoRaid();
  raid["kind"] = "btrfs";
  raid["level"] = OrNull(BtrfsProfile(dir + "/allocation/data"));
  raid["metadata_level"] = OrNull(BtrfsProfile(dir + "/allocation/metadata"));
  for (const std::string& member : ListDir(dir + "/devices")) raid["members"].push_back(member);
  // devinfo/<devid>/missing exists since Linux 5.6; without it the count is unknown.
  std::vector<std::string> devids = ListDir(dir + "/devinfo");
  std::optional<int64_t> missing = devids.empty() ? std::nullopt : std::optional<int64_t>(0);
  for (const std::string& devid : devids) {
    std::optional<int64_t> flag = ReadInt(dir + "/devinfo/" + devid + "/missing");
    if (!flag) {
      missing.reset();
      break;
    }
    *missing += *flag != 0 ? 1 : 0;
  }
  raid["degraded_devices"] = OrNull(missing);
  return raid;
}

}  // namespace nasperf::sysinfo
