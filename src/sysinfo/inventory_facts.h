// The inventory as plain data: the machine and target facts that can change a result.
// sysinfo/ fills it, model/inventory_json.h is its one JSON codec, report/inventory_text.h
// puts it in lines. Plain structs with no behaviour, so model (which links sysinfo for
// them alone) encodes them without knowing how they are gathered. An unknown fact is
// nullopt, never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nasperf {

struct CpuFacts {
  std::optional<std::string> model;
  std::optional<int64_t> cores_logical;
  std::optional<int64_t> cores_physical;  // distinct (package, core) pairs among online CPUs
  std::optional<std::string> governor;    // "mixed" when CPUs differ
  std::optional<int64_t> mhz_max;
  bool operator==(const CpuFacts&) const = default;
};

struct MemoryFacts {
  std::optional<uint64_t> total_bytes;
  std::optional<uint64_t> page_cache_bytes;  // what the page cache holds now
  std::optional<uint64_t> available_bytes;   // what it could grow to without swapping
  bool operator==(const MemoryFacts&) const = default;
};

struct OsFacts {
  std::optional<std::string> pretty_name;
  std::optional<std::string> kernel;
  std::optional<std::string> arch;
  bool operator==(const OsFacts&) const = default;
};

struct NicFacts {
  std::optional<std::string> name;  // always known when gathered; may be missing in a stored document
  std::optional<std::string> driver;
  std::optional<int64_t> speed_mbps;
  std::optional<int64_t> mtu;
  std::optional<std::string> duplex;     // "full" or "half"
  std::optional<std::string> operstate;  // "up", "down" ...
  std::optional<std::string> bus;        // "pci 0000:02:00.0", "usb", "virtio", "virtual" (no device)
  std::optional<int64_t> rated_mbps;     // the highest link speed it supports; nullopt for virtual NICs
  bool operator==(const NicFacts&) const = default;
};

struct HostInventory {
  std::optional<std::string> hostname;
  CpuFacts cpu;
  MemoryFacts memory;
  OsFacts os;
  std::vector<NicFacts> nics;  // every non-loopback interface
  bool operator==(const HostInventory&) const = default;
};

struct FsFacts {
  std::optional<std::string> type;
  std::optional<std::string> mount_point;
  std::optional<std::string> mount_options;
  std::optional<std::string> source;
  std::optional<uint64_t> free_bytes;  // what an unprivileged writer may use
  std::optional<uint64_t> total_bytes;
  bool operator==(const FsFacts&) const = default;
};

struct BlockDevice {
  std::optional<std::string> name;  // "sda", "dm-0"
  std::optional<std::string> kind;  // "disk", "partition", "loop", "dm", "md"
  std::optional<std::string> model;
  std::optional<int64_t> size_bytes;
  std::optional<bool> rotational;
  std::optional<std::string> scheduler;
  std::optional<int64_t> logical_block_bytes;
  std::optional<int64_t> physical_block_bytes;
  std::optional<std::string> backing_file;  // loop devices only
  std::vector<std::string> slaves;          // names of the devices it sits on
  // The storage controller's driver, from the first driver up the disk's sysfs path that
  // is not a SCSI upper-level one: "ahci", "ata_piix" (IDE/legacy mode), "nvme",
  // "virtio_blk", "usb-storage", "uas"; "loop" for loop devices. Disks and partitions.
  std::optional<std::string> controller_driver;
  std::optional<std::string> link;  // "SATA 3.0 Gbit/s": the negotiated ATA link, when libata says
  bool operator==(const BlockDevice&) const = default;
};

// NoRaid is the default: every value unknown, no members.
struct RaidFacts {
  std::optional<std::string> kind;            // "md", "btrfs"; nullopt when none was found
  std::optional<std::string> level;           // "raid1", "single,raid1" while btrfs converts
  std::optional<std::string> metadata_level;  // btrfs
  std::vector<std::string> members;
  std::optional<int64_t> degraded_devices;  // members missing or failed
  std::optional<int64_t> chunk_bytes;       // md stripe chunk
  bool operator==(const RaidFacts&) const = default;
};

// How a remote target is reached.
struct NetworkPath {
  std::optional<std::string> server;
  std::optional<std::string> address;        // the server's address used
  std::optional<std::string> local_address;  // this host's source address towards it
  std::optional<NicFacts> nic;               // the interface that holds local_address
  bool operator==(const NetworkPath&) const = default;
};

struct TargetInventory {
  std::optional<std::string> path;  // canonical path, or the URL with its password redacted
  std::optional<std::string> kind;  // "directory", "file", "block_device", "url", "other"
  FsFacts fs;
  std::vector<BlockDevice> devices;    // top first, then down to the disks
  std::optional<RaidFacts> raid;       // always set when gathered; a stored document may lack it
  std::optional<NetworkPath> network;  // a URL or a network file system only
  bool operator==(const TargetInventory&) const = default;
};

struct Inventory {
  std::optional<HostInventory> host;      // always set when gathered
  std::optional<TargetInventory> target;  // none for "null:"
  bool operator==(const Inventory&) const = default;
};

}  // namespace nasperf
