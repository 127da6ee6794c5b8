// protocol-limited: the disks and the network both carry more, the protocol well less —
// and what was negotiated that costs (signing, encryption, digests, small rsize/wsize, an
// iSCSI read far below its write).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return s;
}

bool On(const std::string& value) {
  const std::string v = Lower(value);
  return v == "on" || v == "yes" || v == "true" || v == "required" || v == "mandatory" || v == "enabled" ||
         v == "desired" || v == "crc32c";
}

// "65536", "32 KiB", "64k", "1 MiB", "1m": bytes (binary units); nullopt when not a size.
std::optional<double> SizeBytes(const std::string& text) {
  double n = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, n);
  if (ec != std::errc() || n < 0) return std::nullopt;
  std::string unit = Lower(std::string(ptr, end));
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  if (unit.empty() || unit == "b") return n;
  if (unit == "k" || unit == "kib" || unit == "kb") return n * 1024;
  if (unit == "m" || unit == "mib" || unit == "mb") return n * 1024 * 1024;
  return std::nullopt;
}

// What was negotiated that costs throughput, one phrase each.
std::vector<std::string> CostlyNegotiations(const Evidence& e, const Waterfall& w) {
  std::vector<std::string> out;
  for (const auto& [name, value] : e.negotiated) {
    const std::string key = Lower(name);
    if ((key.find("signing") != std::string::npos || key.find("encrypt") != std::string::npos ||
         key.find("digest") != std::string::npos) &&
        On(value)) {
      out.push_back(fmt::format("{} {}", name, value));
    } else if (key == "rsize" || key == "wsize") {
      std::optional<double> bytes = SizeBytes(value);
      if (bytes && *bytes < kSmallIoBytes)
        out.push_back(fmt::format("{} {} (below {:.0f} KiB)", name, value, kSmallIoBytes / 1024));
    }
  }
  if (e.target_kind == "iscsi" && w.read.protocol && w.write.protocol &&
      *w.read.protocol < kIscsiReadBelowWriteRatio * *w.write.protocol)
    out.push_back(fmt::format("iSCSI read {} well below its write {} (read-ahead or queue depth on the initiator)",
                              Mb(*w.read.protocol), Mb(*w.write.protocol)));
  return out;
}

}  // namespace

std::optional<Cause> ProtocolLimited(const Evidence& e, const Waterfall& w) {
  // A saturated NAS CPU holds every layer it serves: nas-cpu-saturated names it instead.
  if (NasCpuSaturated(e, w)) return std::nullopt;
  Cause c;
  c.rule = "protocol-limited";
  c.layer = kLayerProtocol;
  for (auto [dir, p] : {std::pair{"read", &w.read}, std::pair{"write", &w.write}}) {
    std::optional<double> disks = p->volume ? p->volume : p->disks;
    if (!p->protocol || !disks || !p->network) continue;
    const double lower = std::min(*disks, *p->network);
    if (*p->protocol >= kProtocolShortRatio * lower) continue;
    if (c.summary.empty())
      c.summary = fmt::format("the protocol is the cap: {} {}, {:.0f} % of the {} the disks and network both carry",
                              Mb(*p->protocol), dir, *p->protocol / lower * 100, Mb(lower));
    c.evidence.push_back(fmt::format("protocol 1M sequential {}: {}", dir, Mb(*p->protocol)));
    c.evidence.push_back(fmt::format("NAS storage {}: {}", dir, Mb(*disks)));
    c.evidence.push_back(fmt::format("network {}: {}", dir == std::string("read") ? "down" : "up", Mb(*p->network)));
  }
  if (c.evidence.empty()) return std::nullopt;
  const std::vector<std::string> costly = CostlyNegotiations(e, w);
  if (!costly.empty()) c.summary += fmt::format("; negotiated at a cost: {}", fmt::join(costly, ", "));
  for (const std::string& line : costly) c.evidence.push_back("negotiated: " + line);
  if (e.protocol_label) c.evidence.push_back("protocol: " + *e.protocol_label);
  return c;
}

}  // namespace nasperf::diagnose
