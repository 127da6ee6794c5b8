// A NIC's rated speed: the highest speed among the link modes its driver says it supports.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nasperf::sysinfo {

// The highest speed in Mbit/s among the ethtool link-mode bits set in `supported` (the
// kernel's bitmap, 32 bits a word, bit N of the map in word N/32). Bits that are not a speed
// (Autoneg, TP, Pause, FEC...) count for nothing; nullopt when no speed bit is set (veth,
// bridges, tun: they report a nominal speed but support no link mode). Pure.
std::optional<int64_t> HighestLinkModeMbps(std::span<const uint32_t> supported);

// The `supported` link-mode bitmap of interface `name` from the ETHTOOL_GLINKSETTINGS
// ioctl (unprivileged); empty when the interface or the driver does not answer.
std::vector<uint32_t> SupportedLinkModes(const std::string& name);

}  // namespace nasperf::sysinfo
