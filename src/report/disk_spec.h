// The disk spec file of `nasperf results disks --spec FILE`: what the user says about each
// disk model (price, capacity, power, interface), and the interfaces' ceilings. TOML.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

// The most a disk's interface can carry, in MB/s (10^6 B/s) of payload: after the line
// code (8b/10b, 128b/130b), before protocol overhead. USB 2.0's ceiling is its practical
// one (bulk transfers top out near 40 MB/s of its 60 MB/s line).
struct InterfaceCeiling {
  std::string name;          // as written in the spec: "sata-3g", "usb2", "pcie3x4"
  std::string label;         // "SATA 3 Gbit/s", "USB 2.0", "PCIe 3.0 x4"
  double mb_per_s = 0;       // the ceiling a disk's figure is held against
  double line_mb_per_s = 0;  // the raw line rate / 8, for the table's note
};

// The interface names a spec may use: sata-1.5g, sata-3g, sata-6g, usb2, usb3.0 (5 Gbit/s,
// also usb3.2-gen1), usb3.1 (10 Gbit/s, also usb3.2-gen2), pcie<gen>x<lanes> (gen 1..5,
// lanes 1, 2, 4, 8, 16: "pcie3x4"). nullopt for anything else.
std::optional<InterfaceCeiling> FindInterface(std::string_view name);
// The names FindInterface knows, for the error line: "sata-1.5g, sata-3g, ...".
std::string InterfaceNames();

struct DiskSpec {
  std::string model;                  // as tagged: `run --tag disk=MODEL`
  std::optional<double> price;        // per drive, in whatever currency the user keeps
  std::optional<double> capacity_gb;  // decimal GB (10^9 bytes), as drives are sold
  std::optional<double> idle_watts;
  std::optional<double> active_watts;
  std::optional<InterfaceCeiling> interface;
  int line = 0;  // where its table starts in the file
};

// Parses a spec file's text:
//   [disk."WDC WD40EFRX"]
//   price = 99.90          # >= 0
//   capacity_gb = 4000     # > 0
//   idle_watts = 2.5       # >= 0
//   active_watts = 5.3     # > 0
//   interface = "sata-6g"
// Every key is optional; numbers may be integers or floats. Anything else — a syntax
// error, an unknown key or table, a wrong type, a negative or non-finite number, an unknown
// interface — is BadInput with one line "FILE:LINE: ...", naming the key. `file` labels
// the messages. Pure; bounded by toml++'s nesting limit.
Result<std::vector<DiskSpec>> ParseDiskSpec(std::string_view text, const std::string& file);

}  // namespace nasperf
