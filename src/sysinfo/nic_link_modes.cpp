// Reads a NIC's supported link modes through ETHTOOL_GLINKSETTINGS and names the fastest.
#include "sysinfo/nic_link_modes.h"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace nasperf::sysinfo {

namespace {

struct LinkModeSpeed {
  int bit;
  int64_t mbps;
};

// Every speed-bearing bit of enum ethtool_link_mode_bit_indices (linux/ethtool.h); half
// duplex modes count too: the NIC can run at that speed.
constexpr LinkModeSpeed kSpeeds[] = {
    {ETHTOOL_LINK_MODE_10baseT_Half_BIT, 10},
    {ETHTOOL_LINK_MODE_10baseT_Full_BIT, 10},
    {ETHTOOL_LINK_MODE_100baseT_Half_BIT, 100},
    {ETHTOOL_LINK_MODE_100baseT_Full_BIT, 100},
    {ETHTOOL_LINK_MODE_1000baseT_Half_BIT, 1000},
    {ETHTOOL_LINK_MODE_1000baseT_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_10000baseT_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_2500baseX_Full_BIT, 2500},
    {ETHTOOL_LINK_MODE_1000baseKX_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_10000baseKX4_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseKR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_20000baseMLD2_Full_BIT, 20000},
    {ETHTOOL_LINK_MODE_20000baseKR2_Full_BIT, 20000},
    {ETHTOOL_LINK_MODE_40000baseKR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_40000baseCR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_40000baseSR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_40000baseLR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_56000baseKR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_56000baseCR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_56000baseSR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_56000baseLR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_25000baseCR_Full_BIT, 25000},
    {ETHTOOL_LINK_MODE_25000baseKR_Full_BIT, 25000},
    {ETHTOOL_LINK_MODE_25000baseSR_Full_BIT, 25000},
    {ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseKR2_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_100000baseKR4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseSR4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseLR4_ER4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_50000baseSR2_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_1000baseX_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_10000baseCR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseSR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseLR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseLRM_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseER_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_2500baseT_Full_BIT, 2500},
    {ETHTOOL_LINK_MODE_5000baseT_Full_BIT, 5000},
    {ETHTOOL_LINK_MODE_50000baseKR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseSR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseCR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseLR_ER_FR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseDR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_100000baseKR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseSR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseCR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseLR2_ER2_FR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseDR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_200000baseKR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseSR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseLR4_ER4_FR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseDR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_100baseT1_Full_BIT, 100},
    {ETHTOOL_LINK_MODE_1000baseT1_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_400000baseKR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseSR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseLR8_ER8_FR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseDR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseCR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_100000baseKR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseSR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseLR_ER_FR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseCR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseDR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_200000baseKR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseSR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseLR2_ER2_FR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseDR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseCR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_400000baseKR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseLR4_ER4_FR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseDR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_100baseFX_Half_BIT, 100},
    {ETHTOOL_LINK_MODE_100baseFX_Full_BIT, 100},
    {ETHTOOL_LINK_MODE_10baseT1L_Full_BIT, 10},
};

// The kernel's bound on the bitmap's length in 32-bit words (SCHAR_MAX in ethtool.h).
constexpr int kMaxWords = 127;

}  // namespace

std::optional<int64_t> HighestLinkModeMbps(std::span<const uint32_t> supported) {
  std::optional<int64_t> best;
  for (const LinkModeSpeed& mode : kSpeeds) {
    size_t word = static_cast<size_t>(mode.bit) / 32;
    if (word >= supported.size() || (supported[word] & (1u << (mode.bit % 32))) == 0) continue;
    if (!best || mode.mbps > *best) best = mode.mbps;
  }
  return best;
}

std::vector<uint32_t> SupportedLinkModes(const std::string& name) {
  if (name.empty() || name.size() >= IFNAMSIZ) return {};
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return {};
  // The request is the settings followed by three bitmaps (supported, advertising, link
  // partner) of link_mode_masks_nwords words each; the first call, with 0 words, is the
  // handshake: the kernel answers with the negated length it wants.
  // (ethtool_link_settings ends in a flexible array, so the request is a byte buffer.)
  alignas(ethtool_link_settings) unsigned char request[sizeof(ethtool_link_settings) + 3 * kMaxWords * 4];
  ethtool_link_settings settings;
  // By pointer: clang refuses to capture a struct with a flexible array member.
  ethtool_link_settings* const answer = &settings;
  auto ask = [&request, &name, fd, answer](int8_t nwords) {
    std::memset(request, 0, sizeof request);
    std::memset(answer, 0, sizeof *answer);
    answer->cmd = ETHTOOL_GLINKSETTINGS;
    answer->link_mode_masks_nwords = nwords;
    std::memcpy(request, answer, sizeof *answer);
    ifreq ifr;
    std::memset(&ifr, 0, sizeof ifr);
    std::memcpy(ifr.ifr_name, name.c_str(), name.size());
    ifr.ifr_data = reinterpret_cast<char*>(request);
    if (ioctl(fd, SIOCETHTOOL, &ifr) != 0) return false;
    std::memcpy(answer, request, sizeof *answer);
    return true;
  };
  std::vector<uint32_t> supported;
  if (ask(0) && settings.link_mode_masks_nwords < 0) {
    int8_t nwords = static_cast<int8_t>(-settings.link_mode_masks_nwords);
    if (nwords <= kMaxWords && ask(nwords) && settings.link_mode_masks_nwords == nwords) {
      supported.resize(static_cast<size_t>(nwords));
      std::memcpy(supported.data(), request + sizeof settings, supported.size() * 4);
    }
  }
  close(fd);
  return supported;
}

}  // namespace nasperf::sysinfo
