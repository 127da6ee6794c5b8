// A fully populated Diagnosis (every field of it and its Evidence set), for the codec's round
// trip and for tests of whoever stores or renders a diagnosis.
#pragma once

#include "model/diagnosis.h"

namespace nasperf::testing {

inline LayerFigure FigureFixture(double read, double write, int64_t run_id) {
  LayerFigure f;
  f.read_mb_per_s = read;
  f.write_mb_per_s = write;
  f.read_iops = read * 10;
  f.write_iops = write * 10;
  f.run_ids = {run_id, run_id + 1};
  f.cached = false;
  return f;
}

inline HostEvidence HostFixture(const std::string& name, int64_t mtu) {
  HostEvidence h;
  h.measured = true;
  h.hostname = name;
  h.cores_logical = 4;
  NicFacts nic;
  nic.name = "eth0";
  nic.driver = "e1000e";
  nic.speed_mbps = 1000;
  nic.mtu = mtu;
  nic.duplex = "full";
  nic.operstate = "up";
  h.nic = nic;
  h.nic_bus = "pci 0000:02:00.0";
  h.nic_rated_mbps = 1000;
  h.cpu_all = CpuPeak{-1, 31.5, 24.0, 1.5};
  h.cpu_top = CpuPeak{0, 96.0, 95.0, 1.0};
  h.cpus = {CpuPeak{0, 96.0, 95.0, 1.0}, CpuPeak{1, 10.0, 0.5, 0.0}};
  IrqLanding irq;
  irq.irq = "24";
  irq.name = "eth0-rx-0";
  irq.kind = "nic";
  irq.device = "eth0";
  irq.top_cpu = 0;
  irq.top_share = 0.99;
  irq.count = 123456;
  irq.smp_affinity = "1";
  h.irqs = {irq};
  return h;
}

inline Diagnosis FullDiagnosisFixture() {
  Evidence e;
  e.target = "smb://nas/share";
  e.target_kind = "smb";
  e.mode = "full";
  e.agent = true;
  e.client = HostFixture("client", 1500);
  e.nas = HostFixture("nas", 9000);
  e.nas.cgroup_path = "/nasperf-lab";
  e.nas.cgroup_quota_cpus = 0.02;
  e.nas.cgroup_usage_cpus = 0.0199;
  e.nas.cgroup_throttled_pct = 79.5;
  e.client_ceiling = FigureFixture(3000, 2500, 1);
  e.client_cpu_us_per_io = 4.5;
  e.client_cpu_busy_pct = 12.5;
  RaidFacts raid;
  raid.kind = "md";
  raid.level = "raid0";
  raid.metadata_level = "raid1";
  raid.members = {"loop3", "loop4"};
  raid.degraded_devices = 0;
  raid.chunk_bytes = 524288;
  e.raid = raid;
  e.volume_fs = "ext4";
  MemberEvidence m;
  m.device = "/dev/loop3";
  m.model = "WDC WD10EZEX";
  m.driver = "ahci";
  m.link = "SATA 3.0 Gbit/s";
  m.seq = FigureFixture(100, 0, 10);
  m.rand = FigureFixture(1.5, 0, 12);
  e.members = {m, m};
  e.members[1].device = "/dev/loop4";
  e.volume_seq = FigureFixture(120, 110, 20);
  e.volume_rand = FigureFixture(3, 2, 22);
  e.net.measured = true;
  e.net.up_1_mb_per_s = 112;
  e.net.up_4_mb_per_s = 117;
  e.net.down_1_mb_per_s = 111;
  e.net.down_4_mb_per_s = 116;
  e.net.retransmits = 42;
  e.net.retransmit_pct = 0.01;
  e.net.run_ids = {30, 31, 32, 33};
  e.protocol_seq = FigureFixture(105, 98, 40);
  e.protocol_seq.cached = true;
  e.protocol_rand = FigureFixture(2, 1.5, 42);
  e.protocol_label = "SMB 3.1.1";
  e.negotiated = {{"dialect", "3.1.1"}, {"signing", "on"}, {"encryption", "off"}};
  e.not_measured = {"NAS sensors: none"};

  Diagnosis d;
  d.id = 7;
  d.started_at = "2026-12-01T18:00:00Z";
  d.command_line = "nasperf diagnose smb://nas/share --agent nas";
  d.evidence = e;
  d.line_rate_mbps = 1000;
  d.line_rate_mb_per_s = 125;
  d.payload_max_mb_per_s = 118.7;
  d.end_to_end_mb_per_s = 105;
  WaterfallRow row;
  row.layer = "network";
  row.what = "down, 4 streams";
  row.mb_per_s = 116;
  row.pct_of_line_rate = 92.8;
  row.pct_of_payload_max = 97.7;
  row.cached = true;
  row.caps = true;
  row.note = "the cap";
  d.waterfall = {row, row};
  d.waterfall[1].layer = "protocol";
  d.cap_layer = "network";
  Cause c;
  c.rule = "mtu-mismatch";
  c.layer = "network";
  c.summary = "the client's MTU 1500 differs from the NAS's 9000";
  c.evidence = {"client eth0 MTU 1500", "NAS eth0 MTU 9000"};
  d.causes = {c};
  d.not_measured = {"no agent: NAS disks, CPU and interrupts not measured"};
  d.partial = true;
  d.error = "step 3 failed";
  d.summary = "the client's MTU 1500 differs from the NAS's 9000";
  return d;
}

}  // namespace nasperf::testing
