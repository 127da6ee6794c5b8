// Reads md and btrfs RAID facts from sysfs and /proc/mdstat.
#include "sysinfo/raid_info.h"

#include "sysinfo/mdstat.h"
#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

RaidFacts NoRaid() { return RaidFacts{}; }

std::optional<RaidFacts> MdRaid(const std::vector<BlockDevice>& devices, const std::string& root) {
  const BlockDevice* md = nullptr;
  for (const BlockDevice& device : devices) {
    if (device.kind == "md" && device.name) {
      md = &device;
      break;
    }
  }
  if (md == nullptr) return std::nullopt;
  std::string name = *md->name;
  std::string dir = root + "/sys/block/" + name + "/md";

  std::optional<MdArray> listed;
  if (std::optional<std::string> mdstat = ReadFileText(root + "/proc/mdstat")) {
    for (MdArray& array : ParseMdstat(*mdstat)) {
      if (array.name == name) listed = std::move(array);
    }
  }

  RaidFacts raid = NoRaid();
  raid.kind = "md";
  std::optional<std::string> level = ReadFirstLine(dir + "/level");
  if (!level && listed) level = listed->level;
  raid.level = level;
  if (listed && !listed->members.empty()) {
    raid.members = listed->members;
  } else {
    raid.members = md->slaves;
  }
  std::optional<int64_t> degraded = ReadInt(dir + "/degraded");
  if (!degraded && listed && listed->devices_wanted && listed->devices_working) {
    degraded = *listed->devices_wanted - *listed->devices_working;
  }
  raid.degraded_devices = degraded;
  std::optional<int64_t> chunk = ReadInt(dir + "/chunk_size");
  if ((!chunk || *chunk <= 0) && listed && listed->chunk_bytes) chunk = static_cast<int64_t>(*listed->chunk_bytes);
  if (chunk && *chunk > 0) raid.chunk_bytes = *chunk;
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

RaidFacts BtrfsRaid(const std::string& uuid, const std::string& root) {
  std::string dir = root + "/sys/fs/btrfs/" + uuid;
  RaidFacts raid = NoRaid();
  raid.kind = "btrfs";
  raid.level = BtrfsProfile(dir + "/allocation/data");
  raid.metadata_level = BtrfsProfile(dir + "/allocation/metadata");
  raid.members = ListDir(dir + "/devices");
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
  raid.degraded_devices = missing;
  return raid;
}

}  // namespace nasperf::sysinfo
