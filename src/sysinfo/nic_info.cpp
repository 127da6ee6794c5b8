// Reads NIC facts from /sys/class/net and the ethtool ioctl, and finds the NIC on a route.
#include "sysinfo/nic_info.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "sysinfo/mount_info.h"
#include "sysinfo/nic_link_modes.h"
#include "sysinfo/sysfs_read.h"

namespace nasperf::sysinfo {

namespace {

constexpr int64_t kArphrdLoopback = 772;  // ARPHRD_LOOPBACK in /sys/class/net/*/type

std::optional<std::string> EthtoolDriver(const std::string& name) {
  if (name.size() >= IFNAMSIZ) return std::nullopt;
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  struct ethtool_drvinfo info;
  std::memset(&info, 0, sizeof info);
  info.cmd = ETHTOOL_GDRVINFO;
  struct ifreq request;
  std::memset(&request, 0, sizeof request);
  std::memcpy(request.ifr_name, name.c_str(), name.size());
  request.ifr_data = reinterpret_cast<char*>(&info);
  int rc = ioctl(fd, SIOCETHTOOL, &request);
  close(fd);
  info.driver[sizeof info.driver - 1] = '\0';
  if (rc != 0 || info.driver[0] == '\0') return std::nullopt;
  return std::string(info.driver);
}

std::string StripBrackets(std::string host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') return host.substr(1, host.size() - 2);
  return host;
}

// "user@host:port" / "[v6]:port" -> host.
std::optional<std::string> HostOfAuthority(std::string authority) {
  if (size_t at = authority.rfind('@'); at != std::string::npos) authority = authority.substr(at + 1);
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string::npos || close == 1) return std::nullopt;
    return authority.substr(1, close - 1);
  }
  if (size_t colon = authority.find(':'); colon != std::string::npos) authority = authority.substr(0, colon);
  if (authority.empty()) return std::nullopt;
  return authority;
}

bool SameAddress(const sockaddr* a, const sockaddr_storage& b) {
  if (a == nullptr || a->sa_family != b.ss_family) return false;
  if (a->sa_family == AF_INET) {
    return reinterpret_cast<const sockaddr_in*>(a)->sin_addr.s_addr ==
           reinterpret_cast<const sockaddr_in*>(&b)->sin_addr.s_addr;
  }
  if (a->sa_family == AF_INET6) {
    return std::memcmp(&reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr,
                       &reinterpret_cast<const sockaddr_in6*>(&b)->sin6_addr, sizeof(in6_addr)) == 0;
  }
  return false;
}

std::string AddressText(const sockaddr* address) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, text, sizeof text);
  } else if (address->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr, text, sizeof text);
  }
  return text;
}

}  // namespace

std::optional<std::string> NicBus(const std::string& name, const std::string& root) {
  std::string dir = root + "/sys/class/net/" + name;
  if (!PathExists(dir)) return std::nullopt;
  std::optional<std::string> device = RealPath(dir + "/device");
  if (!device) return "virtual";  // veth, bridge, bond, tun: no device behind the interface
  std::optional<std::string> subsystem = LinkBaseName(*device + "/subsystem");
  if (!subsystem) return std::nullopt;
  if (*subsystem == "pci") {
    size_t slash = device->rfind('/');
    return "pci " + device->substr(slash + 1);
  }
  return subsystem;
}

NicFacts DescribeNic(const std::string& name, const std::string& root) {
  std::string dir = root + "/sys/class/net/" + name;
  std::optional<std::string> driver = LinkBaseName(dir + "/device/driver");
  if (!driver && root.empty()) driver = EthtoolDriver(name);
  std::optional<int64_t> speed = ReadInt(dir + "/speed");
  if (speed && (*speed <= 0 || *speed == 0xffffffffLL)) speed.reset();  // SPEED_UNKNOWN
  std::optional<std::string> duplex = ReadFirstLine(dir + "/duplex");
  if (duplex && *duplex != "full" && *duplex != "half") duplex.reset();
  std::optional<std::string> operstate = ReadFirstLine(dir + "/operstate");
  if (operstate && *operstate == "unknown") operstate.reset();

  NicFacts nic;
  nic.name = name;
  nic.driver = driver;
  nic.speed_mbps = speed;
  nic.mtu = ReadInt(dir + "/mtu");
  nic.duplex = duplex;
  nic.operstate = operstate;
  nic.bus = NicBus(name, root);
  // A virtual NIC reports a nominal speed and supports no link mode: its rating is unknown.
  if (root.empty() && nic.bus != "virtual") nic.rated_mbps = HighestLinkModeMbps(SupportedLinkModes(name));
  return nic;
}

std::vector<NicFacts> ListNics(const std::string& root) {
  std::vector<NicFacts> nics;
  for (const std::string& name : ListDir(root + "/sys/class/net")) {
    std::optional<int64_t> type = ReadInt(root + "/sys/class/net/" + name + "/type");
    if (type ? *type == kArphrdLoopback : name == "lo") continue;
    NicFacts nic = DescribeNic(name, root);
    // An interface removed while it was read (a test's veth, a VPN going down) is not
    // there any more: half its facts would be unknowns standing for nothing.
    if (!nic.mtu && ::access((root + "/sys/class/net/" + name).c_str(), F_OK) != 0) continue;
    nics.push_back(std::move(nic));
  }
  return nics;
}

bool IsNetworkFsType(const std::string& fs_type) {
  static const char* const kTypes[] = {"nfs",    "nfs4",        "cifs",       "smb3",      "smbfs",          "ceph",
                                       "9p",     "afs",         "fuse.sshfs", "glusterfs", "fuse.glusterfs", "ncpfs",
                                       "lustre", "fuse.rclone", "fuse.s3fs"};
  for (const char* type : kTypes) {
    if (fs_type == type) return true;
  }
  return false;
}

std::optional<std::string> RemoteServerOfMount(const std::string& fs_type, const std::string& source,
                                               const std::string& options) {
  if (std::optional<std::string> addr = OptionValue(options, "addr"); addr && !addr->empty()) {
    return StripBrackets(*addr);
  }
  if (source.rfind("//", 0) == 0) {  // cifs: //server/share
    std::string rest = source.substr(2);
    return HostOfAuthority(rest.substr(0, rest.find('/')));
  }
  size_t colon = source.rfind(":/");
  if (colon == std::string::npos && fs_type == "fuse.sshfs") colon = source.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string host = source.substr(0, colon);  // "srv", "user@srv", "[fd00::1]", "mon1,mon2"
  if (size_t at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
  host = host.substr(0, host.find(','));
  host = StripBrackets(host);
  if (host.empty()) return std::nullopt;
  return host;
}

std::optional<std::string> UrlHost(const std::string& target) {
  size_t scheme_end = target.find("://");
  if (scheme_end == std::string::npos || scheme_end == 0) return std::nullopt;
  std::string rest = target.substr(scheme_end + 3);
  return HostOfAuthority(rest.substr(0, rest.find('/')));
}

std::optional<Route> RouteTo(const std::string& host) {
  addrinfo hints;
  std::memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), "9", &hints, &found) != 0 || found == nullptr) return std::nullopt;
  std::optional<Route> route;
  for (addrinfo* ai = found; ai != nullptr && !route; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    sockaddr_storage local;
    socklen_t local_size = sizeof local;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_size) == 0) {
      Route r;
      r.address = AddressText(ai->ai_addr);
      r.local_address = AddressText(reinterpret_cast<sockaddr*>(&local));
      ifaddrs* interfaces = nullptr;
      if (getifaddrs(&interfaces) == 0) {
        for (ifaddrs* i = interfaces; i != nullptr; i = i->ifa_next) {
          if (SameAddress(i->ifa_addr, local)) {
            r.nic = i->ifa_name;
            break;
          }
        }
        freeifaddrs(interfaces);
      }
      route = std::move(r);
    }
    close(fd);
  }
  freeaddrinfo(found);
  return route;
}

}  // namespace nasperf::sysinfo
