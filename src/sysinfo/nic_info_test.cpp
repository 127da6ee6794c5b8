// Tests of NIC facts (fake sysfs), remote-server parsing and the route lookup.
#include "sysinfo/nic_info.h"

#include <gtest/gtest.h>

#include "sysinfo/nic_link_modes.h"

#include <filesystem>

#include "model/inventory_json.h"
#include "testing/fake_root.h"

namespace nasperf::sysinfo {
namespace {

using nlohmann::ordered_json;

TEST(NicInfo, ReadsLinkFactsAndNullsWhatTheDriverDoesNotReport) {
  testing::FakeRoot root;
  root.Write("/sys/class/net/enp3s0/type", "1\n");
  root.Write("/sys/class/net/enp3s0/mtu", "9000\n");
  root.Write("/sys/class/net/enp3s0/speed", "1000\n");
  root.Write("/sys/class/net/enp3s0/duplex", "full\n");
  root.Write("/sys/class/net/enp3s0/operstate", "up\n");
  root.Link("/sys/class/net/enp3s0/device/driver", "/sys/bus/pci/drivers/e1000e");
  root.Write("/sys/class/net/eth1/type", "1\n");
  root.Write("/sys/class/net/eth1/mtu", "1500\n");
  root.Write("/sys/class/net/eth1/speed", "-1\n");
  root.Write("/sys/class/net/eth1/duplex", "unknown\n");
  root.Write("/sys/class/net/eth1/operstate", "unknown\n");
  root.Write("/sys/class/net/lo/type", "772\n");

  ordered_json nics = InventoryToJson(ListNics(root.path()));
  ASSERT_EQ(nics.size(), 2u);  // loopback left out
  const ordered_json& fast = nics[0];
  EXPECT_EQ(fast["name"], "enp3s0");
  EXPECT_EQ(fast["driver"], "e1000e");
  EXPECT_EQ(fast["speed_mbps"], 1000);
  EXPECT_EQ(fast["mtu"], 9000);
  EXPECT_EQ(fast["duplex"], "full");
  EXPECT_EQ(fast["operstate"], "up");

  const ordered_json& unknown = nics[1];
  EXPECT_EQ(unknown["name"], "eth1");
  EXPECT_TRUE(unknown["driver"].is_null());  // no device link, and no ethtool on a fake root
  EXPECT_TRUE(unknown["speed_mbps"].is_null());
  EXPECT_TRUE(unknown["duplex"].is_null());
  EXPECT_TRUE(unknown["operstate"].is_null());
  EXPECT_EQ(unknown["mtu"], 1500);
}

// /sys/class/net holds symlinks; one whose interface was removed while the list was read
// (another test's veth, a VPN going down) dangles, and is left out instead of listed with
// every fact unknown. The live test below saw exactly that under a parallel ctest.
TEST(NicInfo, AnInterfaceGoneWhileListedIsLeftOut) {
  testing::FakeRoot root;
  root.Write("/sys/class/net/eth0/type", "1\n");
  root.Write("/sys/class/net/eth0/mtu", "1500\n");
  std::filesystem::create_directory_symlink(root.path() + "/sys/devices/virtual/net/veth-gone",
                                            root.path() + "/sys/class/net/veth-gone");
  std::vector<NicFacts> nics = ListNics(root.path());
  ASSERT_EQ(nics.size(), 1u);
  EXPECT_EQ(nics[0].name, "eth0");
}

TEST(NicInfo, LiveListLeavesOutLoopbackAndNamesEveryDriverItCan) {
  ordered_json nics = InventoryToJson(ListNics());
  for (const ordered_json& nic : nics) {
    EXPECT_NE(nic["name"], "lo");
    EXPECT_TRUE(nic["mtu"].is_number_integer()) << nic.dump();
  }
}

TEST(NicInfo, BusFromTheDeviceSubsystem) {
  testing::FakeRoot root;
  root.Link("/sys/class/net/enp2s0/device", "/sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0");
  root.Link("/sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0/subsystem", "/sys/bus/pci");
  root.Link("/sys/class/net/enx0011/device", "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0");
  root.Link("/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/subsystem", "/sys/bus/usb");
  root.Link("/sys/class/net/eth0/device", "/sys/devices/pci0000:00/0000:00:03.0/virtio0");
  root.Link("/sys/devices/pci0000:00/0000:00:03.0/virtio0/subsystem", "/sys/bus/virtio");
  root.MakeDir("/sys/class/net/veth0");  // no device: virtual
  root.Link("/sys/class/net/odd0/device", "/sys/devices/platform/odd");  // no subsystem link
  EXPECT_EQ(NicBus("enp2s0", root.path()), "pci 0000:02:00.0");
  EXPECT_EQ(NicBus("enx0011", root.path()), "usb");
  EXPECT_EQ(NicBus("eth0", root.path()), "virtio");
  EXPECT_EQ(NicBus("veth0", root.path()), "virtual");
  EXPECT_FALSE(NicBus("odd0", root.path()).has_value());
  EXPECT_FALSE(NicBus("gone0", root.path()).has_value());
  NicFacts nic = DescribeNic("enp2s0", root.path());
  EXPECT_EQ(nic.bus, "pci 0000:02:00.0");
  EXPECT_FALSE(nic.rated_mbps.has_value());  // the ioctl is never asked about a fake root
}

TEST(NicLinkModes, HighestSupportedSpeed) {
  // e1000e: 10/100 half and full, 1000 full, Autoneg, TP.
  const uint32_t e1000e[] = {0x2f | 1u << 6 | 1u << 7, 0, 0};
  EXPECT_EQ(HighestLinkModeMbps(e1000e), 1000);
  // A PCI-era 100 Mbit NIC: 10/100 only.
  const uint32_t rtl8139[] = {0xf | 1u << 6};
  EXPECT_EQ(HighestLinkModeMbps(rtl8139), 100);
  // 2.5GBASE-T is bit 47: in the second word.
  const uint32_t igc[] = {0x2f, 1u << (47 - 32), 0};
  EXPECT_EQ(HighestLinkModeMbps(igc), 2500);
  // 10GBASE-T (bit 12) beats 1000 full.
  const uint32_t ixgbe[] = {1u << 5 | 1u << 12};
  EXPECT_EQ(HighestLinkModeMbps(ixgbe), 10000);
  // No speed bit (veth, tun: only Autoneg/TP/Pause or nothing) is unknown, not 0.
  const uint32_t flags_only[] = {1u << 6 | 1u << 7 | 1u << 13};
  EXPECT_FALSE(HighestLinkModeMbps(flags_only).has_value());
  EXPECT_FALSE(HighestLinkModeMbps({}).has_value());
  // A bitmap too short for a high bit is read as far as it goes.
  const uint32_t short_map[] = {0x8};
  EXPECT_EQ(HighestLinkModeMbps(short_map), 100);
}

TEST(NicLinkModes, LoopbackAndMissingInterfacesSupportNothing) {
  EXPECT_TRUE(SupportedLinkModes("lo").empty());
  EXPECT_TRUE(SupportedLinkModes("nasperf-none0").empty());
  EXPECT_TRUE(SupportedLinkModes("").empty());
  EXPECT_TRUE(SupportedLinkModes(std::string(40, 'x')).empty());
}

TEST(NicInfo, RemoteServerOfMount) {
  EXPECT_EQ(RemoteServerOfMount("nfs4", "nas.lan:/volume1", "rw,vers=4.2,addr=198.18.0.2"), "198.18.0.2");
  EXPECT_EQ(RemoteServerOfMount("nfs", "nas.lan:/volume1", "rw"), "nas.lan");
  EXPECT_EQ(RemoteServerOfMount("nfs", "[fd00::2]:/export", "rw"), "fd00::2");
  EXPECT_EQ(RemoteServerOfMount("cifs", "//nas/public", "rw,vers=3.1.1"), "nas");
  EXPECT_EQ(RemoteServerOfMount("cifs", "//nas/public", "rw,addr=198.18.0.3"), "198.18.0.3");
  EXPECT_EQ(RemoteServerOfMount("fuse.sshfs", "alice@nas:/home/alice", "rw"), "nas");
  EXPECT_EQ(RemoteServerOfMount("fuse.sshfs", "alice@nas:", "rw"), "nas");
  EXPECT_FALSE(RemoteServerOfMount("nfs", "weird", "rw").has_value());
  EXPECT_TRUE(IsNetworkFsType("nfs4"));
  EXPECT_TRUE(IsNetworkFsType("cifs"));
  EXPECT_FALSE(IsNetworkFsType("ext4"));
  EXPECT_FALSE(IsNetworkFsType("tmpfs"));
}

TEST(NicInfo, UrlHost) {
  EXPECT_EQ(UrlHost("smb://user:pw@nas.lan:445/share"), "nas.lan");
  EXPECT_EQ(UrlHost("nfs://198.18.0.2/export"), "198.18.0.2");
  EXPECT_EQ(UrlHost("iscsi://[fd00::1]:3260/iqn.2004-04.com.qnap:ts-453:lun0"), "fd00::1");
  EXPECT_EQ(UrlHost("smb://nas"), "nas");
  EXPECT_FALSE(UrlHost("/tmp/x").has_value());
  EXPECT_FALSE(UrlHost("null:").has_value());
  EXPECT_FALSE(UrlHost("smb:///share").has_value());
}

TEST(NicInfo, RouteToLoopbackIsLo) {
  std::optional<Route> route = RouteTo("127.0.0.1");
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->address, "127.0.0.1");
  EXPECT_EQ(route->local_address, "127.0.0.1");
  EXPECT_EQ(route->nic, "lo");
  EXPECT_FALSE(RouteTo("").has_value());
}

}  // namespace
}  // namespace nasperf::sysinfo
