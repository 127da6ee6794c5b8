// ShortOfBeneath: how far the protocol's read or write fell short of the network and the
// NAS's storage on its path — the condition every CPU rule adds, since a CPU figure alone (a
// shared or containerised NAS shows the whole machine's) does not say it held anything back.
#include <fmt/format.h>

#include <algorithm>

#include "diagnose/rules/rules.h"
#include "diagnose/text.h"

namespace nasperf::diagnose {

std::string Shortfall::EvidenceLine() const {
  const char* dir = is_read ? "read" : "write";
  std::string line = fmt::format("protocol 1M sequential {}: {}, {} of ", dir, Mb(protocol_mb_per_s), Pct(pct()));
  std::string network = fmt::format("network {} ({})", is_read ? "down" : "up", Mb(network_mb_per_s));
  if (link_payload_max_mb_per_s && *link_payload_max_mb_per_s > network_mb_per_s)
    network = fmt::format("the link's TCP payload maximum ({}; network {} measured {})", Mb(*link_payload_max_mb_per_s),
                          is_read ? "down" : "up", Mb(network_mb_per_s));
  if (!storage_mb_per_s) return line + network;
  return line + fmt::format("the lower of {} and NAS storage {} ({})", network, dir, Mb(*storage_mb_per_s));
}

namespace {

// One direction's shortfall against what is beneath it on its path, whether short or not.
std::optional<Shortfall> DirectionShortfall(const Waterfall& w, bool is_read, bool against_link) {
  const PathCeilings& p = is_read ? w.read : w.write;
  if (!p.protocol || !p.network || *p.network <= 0) return std::nullopt;  // short of what, cannot be told
  Shortfall s;
  s.is_read = is_read;
  s.protocol_mb_per_s = *p.protocol;
  s.network_mb_per_s = *p.network;
  if (against_link) s.link_payload_max_mb_per_s = w.payload_max_mb_per_s;
  const double network = std::max(*p.network, s.link_payload_max_mb_per_s.value_or(0));
  s.storage_mb_per_s = p.volume ? p.volume : p.disks;
  s.beneath_mb_per_s =
      s.storage_mb_per_s && *s.storage_mb_per_s > 0 ? std::min(network, *s.storage_mb_per_s) : network;
  return s;
}

}  // namespace

std::optional<Shortfall> ShortOfBeneath(const Waterfall& w, double ratio, bool against_link) {
  // Each direction on its own path: a write held to 31 MB/s by a throttled NAS is short
  // even when the read beside it reached the link (issue 33: the lab at --nas-cpu 10).
  std::optional<Shortfall> worst;
  for (bool is_read : {true, false}) {
    std::optional<Shortfall> s = DirectionShortfall(w, is_read, against_link);
    if (!s || s->protocol_mb_per_s >= ratio * s->beneath_mb_per_s) continue;
    if (!worst || s->pct() < worst->pct()) worst = s;
  }
  return worst;
}

}  // namespace nasperf::diagnose
