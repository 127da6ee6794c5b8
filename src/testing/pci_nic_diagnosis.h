// Test fixture: a finished diagnosis of the PCI-NIC case (issue 17) with every kind of
// waterfall row — measured, the cap, cached, not measured — causes with evidence, and
// gaps. Shared by the store's, the text renderer's and the report's tests.
#pragma once

#include "model/diagnosis.h"

namespace nasperf::testing {

inline Diagnosis PciNicDiagnosis() {
  Diagnosis d;
  d.id = 0;
  d.started_at = "2026-12-01T18:00:00Z";
  d.command_line = "nasperf diagnose smb://bench@198.18.0.2/bench --agent 198.18.0.2:7777";
  d.evidence.target = "smb://bench@198.18.0.2/bench";
  d.evidence.target_kind = "smb";
  d.evidence.mode = "default";
  d.evidence.agent = true;
  d.evidence.client.measured = true;
  d.evidence.client.hostname = "client";
  d.evidence.nas.measured = true;
  d.evidence.nas.hostname = "nas";
  d.evidence.net.measured = true;
  d.evidence.net.down_4_mb_per_s = 64.2;
  d.evidence.net.run_ids = {3, 4};
  d.evidence.protocol_seq.read_mb_per_s = 61.8;
  d.evidence.protocol_seq.run_ids = {6};
  d.evidence.protocol_label = "SMB 3.1.1";
  d.evidence.negotiated = {{"dialect", "3.1.1"}, {"signing", "off"}};
  d.line_rate_mbps = 1000;
  d.line_rate_mb_per_s = 125.0;
  d.payload_max_mb_per_s = 118.7;
  d.end_to_end_mb_per_s = 61.8;
  auto row = [](std::string layer, std::string what, std::optional<double> mb, std::optional<double> line,
                std::optional<double> payload) {
    WaterfallRow r;
    r.layer = std::move(layer);
    r.what = std::move(what);
    r.mb_per_s = mb;
    r.pct_of_line_rate = line;
    r.pct_of_payload_max = payload;
    return r;
  };
  d.waterfall.push_back(row("client", "null:, read 1M", 2104.0, 1683.2, 1772.5));
  d.waterfall.push_back(row("NAS disks", "2 members, read 1M, sum", 240.5, 192.4, 202.6));
  d.waterfall.push_back(row("NAS volume", "read 1M", 212.25, 169.8, 178.8));
  d.waterfall.push_back(row("network", "down, 4 streams", 64.2, 51.36, 54.09));
  d.waterfall.back().caps = true;
  d.waterfall.push_back(row("protocol", "read 1M", 61.8, 49.44, 52.06));
  d.waterfall.push_back(row("protocol", "read 64k, buffered", 410.0, 328.0, 345.4));
  d.waterfall.back().cached = true;
  d.waterfall.back().note = "above the line rate: served from the client's cache";
  d.waterfall.push_back(row("NAS CPU", "busiest CPU", std::nullopt, std::nullopt, std::nullopt));
  d.waterfall.back().note = "no telemetry from the agent";
  d.cap_layer = "network";
  Cause c;
  c.rule = "link-path-cap";
  c.layer = "network";
  c.summary = "the link path caps at 64 MB/s, 51 % of 1 GbE; disks and protocol could do more";
  c.evidence = {"net down, 4 streams: 64.2 MB/s", "link: 1000 Mbit/s full duplex on both ends",
                "TCP retransmits: 0.01 % of segments"};
  d.causes.push_back(c);
  Cause slow;
  slow.rule = "nic-on-pci";
  slow.layer = "network";
  slow.summary = "the NAS's NIC sits on a 32-bit PCI bus";
  slow.evidence = {"nas eth0: bus pci 0000:02:00.0, driver e1000"};
  d.causes.push_back(slow);
  d.not_measured = {"NAS CPU and interrupts: the agent sent no telemetry"};
  d.summary = "the link path caps the throughput: 64.2 MB/s, 51 % of 1 GbE";
  return d;
}

}  // namespace nasperf::testing
