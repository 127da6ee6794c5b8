// Tests of the storage controller's driver and SATA link speed on fake sysfs trees shaped
// like real machines': AHCI and IDE-mode SATA, NVMe, virtio, a USB disk, a loop device.
#include <gtest/gtest.h>

#include "sysinfo/block_devices.h"
#include "testing/fake_root.h"

namespace nasperf::sysinfo {
namespace {

class ControllerSysfs : public ::testing::Test {
 protected:
  // A whole disk at `dir` (its block directory), its device/ link to `device`, "MAJ:MIN" `dev`.
  void Disk(const std::string& dir, const std::string& device, const std::string& dev) {
    root_.Write(dir + "/dev", dev + "\n");
    root_.Write(dir + "/size", "1000\n");
    root_.Link(dir + "/device", device);
    root_.Link("/sys/dev/block/" + dev, dir);
  }
  void Driver(const std::string& dir, const std::string& bus, const std::string& driver) {
    root_.Link(dir + "/driver", "/sys/bus/" + bus + "/drivers/" + driver);
  }
  BlockDevice Only(const std::string& dev) {
    std::vector<BlockDevice> devices = WalkBlockDevices({dev}, root_.path(), nullptr);
    EXPECT_EQ(devices.size(), 1u);
    return devices.empty() ? BlockDevice{} : devices[0];
  }

  testing::FakeRoot root_;
};

// sda's device is the SCSI device 0:0:0:0, bound to sd; the controller is the PCI function
// above the ata port, and libata's link of that port says the negotiated speed.
constexpr const char* kAhciPort = "/sys/devices/pci0000:00/0000:00:1f.2/ata3";

TEST_F(ControllerSysfs, SataDiskBehindAhciWithItsLinkSpeed) {
  std::string scsi = std::string(kAhciPort) + "/host2/target2:0:0/2:0:0:0";
  Disk(scsi + "/block/sda", scsi, "8:0");
  Driver(scsi, "scsi", "sd");
  Driver("/sys/devices/pci0000:00/0000:00:1f.2", "pci", "ahci");
  root_.Write("/sys/class/ata_link/link3/sata_spd", "3.0 Gbps\n");
  root_.Write("/sys/class/ata_link/link1/sata_spd", "6.0 Gbps\n");  // another port: not this disk's
  root_.Write(scsi + "/block/sda/sda1/dev", "8:1\n");
  root_.Write(scsi + "/block/sda/sda1/partition", "1\n");
  root_.Link("/sys/dev/block/8:1", scsi + "/block/sda/sda1");

  BlockDevice sda = Only("8:0");
  EXPECT_EQ(sda.controller_driver, "ahci");
  EXPECT_EQ(sda.link, "SATA 3.0 Gbit/s");
  std::vector<BlockDevice> from_partition = WalkBlockDevices({"8:1"}, root_.path(), nullptr);
  ASSERT_EQ(from_partition.size(), 2u);
  EXPECT_EQ(from_partition[0].controller_driver, "ahci");  // the partition's disk's controller
  EXPECT_EQ(from_partition[0].link, "SATA 3.0 Gbit/s");
}

TEST_F(ControllerSysfs, IdeModeSataIsAtaPiixAndAnUnknownLinkIsNull) {
  std::string scsi = "/sys/devices/pci0000:00/0000:00:1f.1/ata1/host0/target0:0:0/0:0:0:0";
  Disk(scsi + "/block/sda", scsi, "8:0");
  Driver(scsi, "scsi", "sd");
  Driver("/sys/devices/pci0000:00/0000:00:1f.1", "pci", "ata_piix");
  root_.Write("/sys/class/ata_link/link1/sata_spd", "<unknown>\n");
  BlockDevice sda = Only("8:0");
  EXPECT_EQ(sda.controller_driver, "ata_piix");
  EXPECT_FALSE(sda.link.has_value());
}

TEST_F(ControllerSysfs, NvmeVirtioAndUsbDisks) {
  // nvme0n1/device is the controller nvme0 (no driver of its own); the PCI function has nvme.
  std::string nvme = "/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0";
  Disk(nvme + "/nvme0n1", nvme, "259:0");
  Driver("/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0", "pci", "nvme");
  Driver("/sys/devices/pci0000:00/0000:00:1d.0", "pci", "pcieport");
  EXPECT_EQ(Only("259:0").controller_driver, "nvme");
  EXPECT_FALSE(Only("259:0").link.has_value());

  std::string virtio = "/sys/devices/pci0000:00/0000:00:04.0/virtio1";
  Disk(virtio + "/block/vda", virtio, "254:0");
  Driver(virtio, "virtio", "virtio_blk");
  Driver("/sys/devices/pci0000:00/0000:00:04.0", "pci", "virtio-pci");
  EXPECT_EQ(Only("254:0").controller_driver, "virtio_blk");

  std::string usb = "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0";
  std::string scsi = usb + "/host6/target6:0:0/6:0:0:0";
  Disk(scsi + "/block/sdd", scsi, "8:48");
  Driver(scsi, "scsi", "sd");
  Driver(usb, "usb", "usb-storage");
  Driver("/sys/devices/pci0000:00/0000:00:14.0", "pci", "xhci_hcd");
  EXPECT_EQ(Only("8:48").controller_driver, "usb-storage");
}

TEST_F(ControllerSysfs, LoopIsTheLoopDriverAndNoDeviceIsUnknown) {
  root_.Write("/sys/devices/virtual/block/loop0/dev", "7:0\n");
  root_.Write("/sys/devices/virtual/block/loop0/loop/backing_file", "/srv/a.img\n");
  root_.Link("/sys/dev/block/7:0", "/sys/devices/virtual/block/loop0");
  EXPECT_EQ(Only("7:0").controller_driver, "loop");
  root_.Write("/sys/devices/virtual/block/zram0/dev", "252:0\n");
  root_.Link("/sys/dev/block/252:0", "/sys/devices/virtual/block/zram0");
  EXPECT_FALSE(Only("252:0").controller_driver.has_value());
  EXPECT_FALSE(Only("252:0").link.has_value());
}

TEST(SataSpeed, ParsesLibataSpeeds) {
  EXPECT_EQ(ParseSataSpeed("1.5 Gbps"), "SATA 1.5 Gbit/s");
  EXPECT_EQ(ParseSataSpeed("6.0 Gbps\n"), "SATA 6.0 Gbit/s");
  EXPECT_FALSE(ParseSataSpeed("<unknown>").has_value());
  EXPECT_FALSE(ParseSataSpeed(" Gbps").has_value());
  EXPECT_FALSE(ParseSataSpeed("fast Gbps").has_value());
  EXPECT_FALSE(ParseSataSpeed("").has_value());
}

}  // namespace
}  // namespace nasperf::sysinfo
