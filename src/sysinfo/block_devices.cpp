// Describes block devices from /sys/dev/block and walks partitions, loop, dm and md down to the disks.
#include "sysinfo/block_devices.h"

#include <deque>
#include <set>

#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

constexpr size_t kMaxDevices = 256;  // a bound on the walk, whatever sysfs says

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

std::string KindOf(const std::string& dir) {
  if (PathExists(dir + "/partition")) return "partition";
  if (PathExists(dir + "/loop") || BaseName(dir).rfind("loop", 0) == 0) return "loop";
  if (PathExists(dir + "/dm")) return "dm";
  if (PathExists(dir + "/md")) return "md";
  return "disk";
}

// SCSI upper-level drivers bind the disk itself, not its controller: the walk goes past them.
bool IsScsiUpperDriver(const std::string& driver) {
  return driver == "sd" || driver == "sr" || driver == "st" || driver == "sg" || driver == "ses" || driver == "ch";
}

// The port number of a libata port directory ("ata3" -> "3"), or "".
std::string AtaPortNumber(const std::string& name) {
  if (name.size() <= 3 || name.rfind("ata", 0) != 0) return "";
  for (size_t i = 3; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return "";
  return name.substr(3);
}

struct Controller {
  std::optional<std::string> driver;
  std::optional<std::string> link;
};

// Walks up from the disk's device directory (`hardware_dir`/device) towards /sys/devices:
// the first driver that is not a SCSI upper-level one is the controller's ("0:0:0:0" is
// bound to sd, the PCI function above the ata port to ahci), and an "ataN" directory on the
// way names the libata link whose negotiated speed is in /sys/class/ata_link/linkN/sata_spd.
Controller FindController(const std::string& hardware_dir, const std::string& root) {
  Controller out;
  std::optional<std::string> dir = RealPath(hardware_dir + "/device");
  const std::string top = root + "/sys/devices";
  for (int depth = 0; dir && depth < 16 && dir->size() > top.size() && dir->rfind(top, 0) == 0; ++depth) {
    std::string port = AtaPortNumber(BaseName(*dir));
    if (!port.empty() && !out.link) {
      if (std::optional<std::string> spd = ReadFirstLine(root + "/sys/class/ata_link/link" + port + "/sata_spd"))
        out.link = ParseSataSpeed(*spd);
    }
    if (std::optional<std::string> driver = LinkBaseName(*dir + "/driver"); driver && !IsScsiUpperDriver(*driver)) {
      out.driver = driver;
      break;
    }
    dir = DirName(*dir);
  }
  return out;
}

struct Described {
  BlockDevice device;
  std::vector<std::string> lower;  // MAJ:MIN of the devices it sits on
};

Described Describe(const std::string& dir, const std::string& root, const FileDevicesFn& devices_of_file) {
  Described out;
  std::string kind = KindOf(dir);
  // A partition shares its disk's request queue and hardware.
  std::string hardware_dir = kind == "partition" ? DirName(dir) : dir;
  std::string queue = hardware_dir + "/queue";

  std::optional<std::string> model = ReadFirstLine(hardware_dir + "/device/model");
  if (!model) model = ReadFirstLine(hardware_dir + "/device/name");  // MMC/SD cards
  std::optional<int64_t> sectors = ReadInt(dir + "/size");           // always 512-byte units
  std::optional<int64_t> rotational = ReadInt(queue + "/rotational");
  std::optional<std::string> scheduler_text = ReadFirstLine(queue + "/scheduler");
  std::optional<std::string> backing_file;
  if (kind == "loop") backing_file = ReadFirstLine(dir + "/loop/backing_file");

  BlockDevice& d = out.device;
  d.name = BaseName(dir);
  d.kind = kind;
  d.model = model;
  if (sectors && *sectors >= 0) d.size_bytes = *sectors * 512;
  if (rotational && (*rotational == 0 || *rotational == 1)) d.rotational = *rotational == 1;
  d.scheduler = scheduler_text ? ParseScheduler(*scheduler_text) : std::nullopt;
  d.logical_block_bytes = ReadInt(queue + "/logical_block_size");
  d.physical_block_bytes = ReadInt(queue + "/physical_block_size");
  d.backing_file = backing_file;
  if (kind == "disk" || kind == "partition") {
    Controller controller = FindController(hardware_dir, root);
    d.controller_driver = controller.driver;
    d.link = controller.link;
  } else if (kind == "loop") {
    d.controller_driver = "loop";  // no hardware: the loop driver serves it from a file
  }

  if (kind == "partition") {
    if (std::optional<std::string> dev = ReadFirstLine(hardware_dir + "/dev")) out.lower.push_back(*dev);
  }
  for (const std::string& slave : ListDir(dir + "/slaves")) {
    if (std::optional<std::string> dev = ReadFirstLine(dir + "/slaves/" + slave + "/dev")) out.lower.push_back(*dev);
  }
  if (backing_file && devices_of_file) {
    for (const std::string& dev : devices_of_file(*backing_file)) out.lower.push_back(dev);
  }
  for (const std::string& dev : out.lower) {
    if (std::optional<std::string> lower_dir = RealPath(root + "/sys/dev/block/" + dev)) {
      d.slaves.push_back(BaseName(*lower_dir));
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> ParseScheduler(std::string_view text) {
  size_t open = text.find('[');
  size_t close = text.find(']', open == std::string_view::npos ? 0 : open);
  if (open != std::string_view::npos && close != std::string_view::npos && close > open + 1) {
    return std::string(text.substr(open + 1, close - open - 1));
  }
  std::string word = Trim(text);
  if (word.empty() || word.find_first_of(" \t[]") != std::string::npos) return std::nullopt;
  return word;
}

std::optional<std::string> ParseSataSpeed(std::string_view text) {
  std::string speed = Trim(text);
  const std::string unit = " Gbps";
  if (speed.size() <= unit.size() || speed.compare(speed.size() - unit.size(), unit.size(), unit) != 0) return std::nullopt;
  std::string number = speed.substr(0, speed.size() - unit.size());
  if (number.find_first_not_of("0123456789.") != std::string::npos || number.front() == '.') return std::nullopt;
  return "SATA " + number + " Gbit/s";
}

std::vector<BlockDevice> WalkBlockDevices(const std::vector<std::string>& top, const std::string& root,
                                          const FileDevicesFn& devices_of_file) {
  std::vector<BlockDevice> devices;
  std::set<std::string> seen;  // sysfs directories already described
  std::deque<std::string> pending(top.begin(), top.end());
  while (!pending.empty() && devices.size() < kMaxDevices) {
    std::string majmin = pending.front();
    pending.pop_front();
    std::optional<std::string> dir = RealPath(root + "/sys/dev/block/" + majmin);
    if (!dir || !seen.insert(*dir).second) continue;
    Described described = Describe(*dir, root, devices_of_file);
    devices.push_back(std::move(described.device));
    for (std::string& lower : described.lower) pending.push_back(std::move(lower));
  }
  return devices;
}

}  // namespace nasperf::sysinfo
