// Network interfaces and routes: the NIC a remote target is reached through, and its link.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sysinfo/inventory_facts.h"

namespace nasperf::sysinfo {

// Name, driver, speed, MTU, duplex and operstate from /sys/class/net/NAME,
// the driver from device/driver or, for virtual NICs (veth, bridge), the ethtool
// ETHTOOL_GDRVINFO ioctl (unprivileged; only when `root` is ""). Link speed and duplex are
// unknown while the link is down or the driver does not report them (virtio), operstate unknown
// when the kernel says "unknown".
// Also the bus (NicBus) and, on the real system only, the rated speed: the fastest link
// mode the driver supports (ETHTOOL_GLINKSETTINGS), unknown for virtual NICs.
NicFacts DescribeNic(const std::string& name, const std::string& root = "");

// The bus the NIC sits on, from the subsystem of /sys/class/net/NAME/device: "pci
// 0000:02:00.0" (with its address), "usb", "virtio", ...; "virtual" when the interface has no
// device (veth, bridge, bond, tun); nullopt when there is no such interface or the device
// names no subsystem.
std::optional<std::string> NicBus(const std::string& name, const std::string& root = "");

// Every non-loopback interface, by name.
std::vector<NicFacts> ListNics(const std::string& root = "");

// True for file systems whose data goes over the network (nfs, cifs, fuse.sshfs ...).
bool IsNetworkFsType(const std::string& fs_type);

// The server of a network mount: "addr=" in its options when the kernel records it (nfs,
// cifs), else the host in its source ("srv:/export", "//srv/share", "user@srv:/dir"). Pure.
std::optional<std::string> RemoteServerOfMount(const std::string& fs_type, const std::string& source,
                                               const std::string& options);

// The host of a URL target ("smb://user@nas.lan:445/share" -> "nas.lan", "nfs://[fd00::1]/x"
// -> "fd00::1"); nullopt when `target` is not scheme://host... Pure.
std::optional<std::string> UrlHost(const std::string& target);

struct Route {
  std::string address;             // the server's address used ("198.18.0.2")
  std::string local_address;       // this host's source address towards it
  std::optional<std::string> nic;  // the interface that holds local_address
};
// The route to `host` as the kernel would choose it: resolves the name, connect(2)s a UDP
// socket (which sends nothing) and reads its local address. nullopt when unresolvable or unroutable.
std::optional<Route> RouteTo(const std::string& host);

}  // namespace nasperf::sysinfo
