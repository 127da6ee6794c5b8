// BuildWaterfall: rows per layer and direction, cache marking, the end-to-end figure, the cap.
#include "diagnose/waterfall.h"

#include <fmt/format.h>

#include <algorithm>

#include "diagnose/link_math.h"
#include "diagnose/thresholds.h"

namespace nasperf::diagnose {
namespace {

std::optional<double> Better(std::optional<double> a, std::optional<double> b) {
  if (a && b) return std::max(*a, *b);
  return a ? a : b;
}

// What a row is compared against to tell a cache served it.
struct CacheTest {
  bool crosses_network = false;         // above the line rate is impossible on the wire
  std::optional<double> disks_ceiling;  // above it (by kAboveDisksFactor) is impossible from disk
  // The step ran O_DIRECT or its cold-read check found nothing resident: a figure above those
  // ceilings says a ceiling is wrong, not that a cache served it.
  bool checked_uncached = false;
};

class Builder {
 public:
  explicit Builder(const Evidence& e) : e_(e) {}

  Waterfall Build() {
    w_.line_rate_mbps = PathLineRateMbps(e_);
    w_.line_rate_stated = e_.stated_line_rate_mbps && *e_.stated_line_rate_mbps > 0;
    w_.path_mtu = PathMtu(e_);
    if (w_.line_rate_mbps) {
      w_.line_rate_mb_per_s = LineRateMbPerS(*w_.line_rate_mbps);
      if (w_.path_mtu) w_.payload_max_mb_per_s = PayloadMaxMbPerS(*w_.line_rate_mbps, *w_.path_mtu);
    }
    w_.disks = ExpectFromMembers(e_);
    ClientRows();
    DiskRows();
    NetworkRows();
    ProtocolRows();
    Lowest(&w_.read);
    Lowest(&w_.write);
    Cap();
    return std::move(w_);
  }

 private:
  // Adds a row; returns its figure when it is a ceiling (measured and not cached).
  std::optional<double> Row(const char* layer, std::string what, std::optional<double> mb, bool marked_cached,
                            const CacheTest& test, std::string missing_note) {
    WaterfallRow row;
    row.layer = layer;
    row.what = std::move(what);
    row.mb_per_s = mb;
    if (!mb) {
      row.note = std::move(missing_note);
      w_.rows.push_back(std::move(row));
      return std::nullopt;
    }
    row.pct_of_line_rate = w_.PctOfLine(*mb);
    if (w_.payload_max_mb_per_s) row.pct_of_payload_max = *mb / *w_.payload_max_mb_per_s * 100.0;
    if (marked_cached) {
      row.cached = true;
      row.note = "served from a cache (the step said so); left out of the cap";
    } else if (test.checked_uncached && test.crosses_network && w_.line_rate_mb_per_s &&
               *mb > *w_.line_rate_mb_per_s) {
      row.note = fmt::format(
          "above the {} line rate ({:.0f} MB/s), yet it ran O_DIRECT or its cold-read check found nothing cached: the "
          "line rate is wrong, not a cache",
          w_.LineLabel(), *w_.line_rate_mb_per_s);
    } else if (test.crosses_network && w_.line_rate_mb_per_s && *mb > *w_.line_rate_mb_per_s) {
      row.cached = true;
      row.note = fmt::format("above the {} line rate ({:.0f} MB/s): a cache served it; left out of the cap",
                             w_.LineLabel(), *w_.line_rate_mb_per_s);
    } else if (test.disks_ceiling && *mb > *test.disks_ceiling * kAboveDisksFactor) {
      row.cached = true;
      row.note = fmt::format("above the disks' ceiling ({:.0f} MB/s): a cache served it; left out of the cap",
                             *test.disks_ceiling);
    }
    const bool ceiling = !row.cached;
    w_.rows.push_back(std::move(row));
    return ceiling ? mb : std::nullopt;
  }

  std::string NoAgentNote() const { return e_.agent ? "not measured" : "not measured: no agent"; }

  void ClientRows() {
    const LayerFigure& c = e_.client_ceiling;
    w_.read.client = Row(kLayerClient, "null: 1M sequential read (the client's own ceiling)", c.read_mb_per_s, c.cached,
                         {}, "not measured");
    ClientRowFacts();
    w_.write.client = Row(kLayerClient, "null: 1M sequential write (the client's own ceiling)", c.write_mb_per_s,
                          c.cached, {}, "not measured");
    ClientRowFacts();
  }

  // null: moves no data over any link: its MB/s is the client's own ceiling, no share of a
  // line rate (issue 33: "5020755 % of the line rate"), and what it measured is the client's
  // CPU cost per I/O, which the row says.
  void ClientRowFacts() {
    WaterfallRow& row = w_.rows.back();
    if (!row.mb_per_s) return;
    row.pct_of_line_rate.reset();
    row.pct_of_payload_max.reset();
    if (row.cached) return;
    row.note = e_.client_cpu_us_per_io
                   ? fmt::format("null: moves no data; the client's CPU per I/O: {:.3g} us", *e_.client_cpu_us_per_io)
                   : "null: moves no data; the client's CPU per I/O not measured";
  }

  void DiskRows() {
    std::string what = fmt::format("members' raw {} read, expected for the volume", kMemberReadLabel);
    std::optional<double> expected;
    std::string missing = NoAgentNote();
    if (w_.disks) {
      what = fmt::format("{} members' raw {} read, expected for {} ({})", w_.disks->members, kMemberReadLabel,
                         w_.disks->level,
                         w_.disks->how);
      expected = w_.disks->one_reader_mb_per_s;
    } else if (e_.agent && e_.members.empty()) {
      missing = "not measured: no member read (the agent needs --allow-volume-members or --allow-device)";
    } else if (e_.agent) {
      missing = "members read, but the RAID level gives no expectation";
    }
    w_.read.disks = Row(kLayerDisks, what, expected, false, {}, missing);
    if (w_.disks && w_.disks->parallel_mb_per_s > w_.disks->one_reader_mb_per_s && !w_.rows.empty())
      w_.rows.back().note = fmt::format("up to {:.0f} MB/s with parallel readers", w_.disks->parallel_mb_per_s);
    // The volume: reads above what the members can give came from the NAS's page cache.
    std::optional<double> members_max;
    if (w_.disks) members_max = w_.disks->parallel_mb_per_s;
    const LayerFigure& v = e_.volume_seq;
    w_.read.volume = Row(kLayerVolume, "1M sequential read on the volume (run --on)", v.read_mb_per_s, v.cached,
                         {false, members_max}, NoAgentNote());
    // What the members should give against what the volume gave, when the row is a figure
    // of its own (a cached one already says why it is not).
    if (w_.read.volume && expected && *expected > 0 && !w_.rows.back().cached)
      w_.rows.back().note = fmt::format("expected {:.0f} MB/s from its members ({}: {}), measured {:.0f}: ratio {:.2f}",
                                        *expected, w_.disks->level, w_.disks->how, *w_.read.volume,
                                        *w_.read.volume / *expected);
    w_.write.volume = Row(kLayerVolume, "1M sequential write on the volume (run --on)", v.write_mb_per_s, v.cached, {},
                          NoAgentNote());
  }

  // A window's bytes over its own clock can exceed the wire by what its edges hold: frames
  // queued before it opened, a shaper's bucket (the lab's holds 10 ms of its rate, 0.2 % of
  // a 5 s step). Above this, no timing explains the figure (117.71 against 117.69 is a
  // window's edge; 119.5, the old lab's 1.6 % over, is a rate that is not the link's).
  static constexpr double kAbovePayloadMaxFactor = 1.005;

  void NetworkRows() {
    const NetEvidence& n = e_.net;
    const std::string missing = NoAgentNote();
    auto row = [&](const char* what, std::optional<double> mb) {
      std::optional<double> r = Row(kLayerNetwork, what, mb, false, {}, missing);
      if (!r) return r;
      if (w_.line_rate_mb_per_s && *r > *w_.line_rate_mb_per_s) {
        w_.rows.back().note = w_.line_rate_stated ? "above the stated line rate: that rate is not the link's"
                                                  : "above the NIC's reported speed: that speed is not the link's";
      } else if (w_.payload_max_mb_per_s && *r > *w_.payload_max_mb_per_s * kAbovePayloadMaxFactor) {
        // No TCP stream carries more than the payload maximum at the line rate: a figure above
        // it (issue 33: 101-102 % in the lab) says the line rate or the shaping is off, as a
        // tc tbf that counts frames without preamble, gap and FCS lets through more than a wire.
        w_.rows.back().note = fmt::format(
            "above the TCP payload maximum for MTU {} ({:.1f} MB/s): the {} line rate or the link's shaping is off "
            "(tc tbf counts frames without preamble, gap and FCS)",
            *w_.path_mtu, *w_.payload_max_mb_per_s, w_.line_rate_stated ? "stated" : "NICs'");
      }
      return r;
    };
    std::optional<double> d1 = row("down (NAS to client), 1 stream", n.down_1_mb_per_s);
    std::optional<double> d4 = row("down (NAS to client), 4 streams", n.down_4_mb_per_s);
    std::optional<double> u1 = row("up (client to NAS), 1 stream", n.up_1_mb_per_s);
    std::optional<double> u4 = row("up (client to NAS), 4 streams", n.up_4_mb_per_s);
    w_.read.network = Better(d1, d4);
    w_.write.network = Better(u1, u4);
  }

  void ProtocolRows() {
    const std::string label = e_.protocol_label ? " (" + *e_.protocol_label + ")" : "";
    const LayerFigure& p = e_.protocol_seq;
    // A read above both the volume's uncached read and the members' ceiling came from a cache.
    std::optional<double> read_disks =
        Better(w_.read.volume, w_.disks ? std::optional<double>(w_.disks->parallel_mb_per_s) : std::nullopt);
    w_.read.protocol = Row(kLayerProtocol, "1M sequential read" + label, p.read_mb_per_s, p.cached,
                           {true, read_disks, p.read_checked_uncached}, "not measured");
    w_.write.protocol = Row(kLayerProtocol, "1M sequential write" + label, p.write_mb_per_s, p.cached,
                            {true, w_.write.volume}, "not measured");
    if (w_.read.protocol || w_.write.protocol) {
      w_.end_to_end_is_read = !w_.write.protocol || (w_.read.protocol && *w_.read.protocol >= *w_.write.protocol);
      w_.end_to_end_mb_per_s = w_.end_to_end_is_read ? w_.read.protocol : w_.write.protocol;
    }
  }

  static void Lowest(PathCeilings* p) {
    for (auto [layer, value] : {std::pair{kLayerClient, p->client}, std::pair{kLayerDisks, p->disks},
                                std::pair{kLayerVolume, p->volume}, std::pair{kLayerNetwork, p->network}}) {
      if (value && (!p->lowest_below || *value < *p->lowest_below)) {
        p->lowest_below = value;
        p->lowest_below_layer = layer;
      }
    }
  }

  void Cap() {
    if (!w_.end_to_end_mb_per_s) return;
    const PathCeilings& p = w_.end_to_end_path();
    const double e2e = *w_.end_to_end_mb_per_s;
    const bool below_measured = p.network && (p.volume || p.disks);
    if (p.lowest_below && e2e >= kProtocolShortRatio * *p.lowest_below) {
      w_.cap_layer = p.lowest_below_layer;
      w_.cap_mb_per_s = p.lowest_below;
    } else if (below_measured) {
      w_.cap_layer = kLayerProtocol;
      w_.cap_mb_per_s = e2e;
    } else {
      return;  // the layers that could explain it were not measured
    }
    // Mark the row: the cap layer's figure in the end-to-end direction.
    const std::string dir = w_.end_to_end_is_read ? "read" : "write";
    const std::string net_dir = w_.end_to_end_is_read ? "down" : "up";
    for (WaterfallRow& row : w_.rows) {
      if (row.layer != w_.cap_layer || row.cached || !row.mb_per_s || *row.mb_per_s != *w_.cap_mb_per_s) continue;
      const bool right_direction = row.layer == kLayerNetwork ? row.what.rfind(net_dir, 0) == 0
                                   : row.layer == kLayerDisks ? true
                                                              : row.what.find(dir) != std::string::npos;
      if (!right_direction) continue;
      row.caps = true;
      break;
    }
  }

  const Evidence& e_;
  Waterfall w_;
};

}  // namespace

std::string Waterfall::LineLabel() const {
  return LinkLabel(*line_rate_mbps) + (line_rate_stated ? " (stated)" : "");
}

std::optional<double> Waterfall::PctOfLine(double mb_per_s) const {
  if (!line_rate_mb_per_s || *line_rate_mb_per_s <= 0) return std::nullopt;
  return mb_per_s / *line_rate_mb_per_s * 100.0;
}

Waterfall BuildWaterfall(const Evidence& e) { return Builder(e).Build(); }

}  // namespace nasperf::diagnose
