// Evidence for diagnose's tests (only tests include it): the healthy 1 GbE case every rule
// must stay quiet on, and the changes that make each seed case from it.
#pragma once

#include "model/diagnosis.h"

namespace nasperf::diagnose::testing {

inline HostEvidence IdleHost(const std::string& name) {
  HostEvidence h;
  h.measured = true;
  h.hostname = name;
  h.cores_logical = 2;
  NicFacts nic;
  nic.name = "eth0";
  nic.driver = "e1000e";
  nic.speed_mbps = 1000;
  nic.mtu = 1500;
  nic.duplex = "full";
  nic.operstate = "up";
  h.nic = nic;
  h.nic_rated_mbps = 1000;
  h.cpu_all = CpuPeak{-1, 10, 2, 0};
  h.cpu_top = CpuPeak{1, 12, 2, 0};
  h.cpus = {CpuPeak{0, 8, 2, 0}, CpuPeak{1, 12, 2, 0}};
  return h;
}

// Healthy 1 GbE: net 117 MB/s at 1000 Mbit, one disk of 400 MB/s, protocol 110 MB/s read.
inline Evidence HealthyGbE() {
  Evidence e;
  e.target = "smb://nas/share";
  e.target_kind = "smb";
  e.mode = "default";
  e.agent = true;
  e.client = IdleHost("client");
  e.nas = IdleHost("nas");
  e.client_ceiling.read_mb_per_s = 3000;
  e.client_ceiling.write_mb_per_s = 2500;
  e.client_cpu_busy_pct = 15;
  MemberEvidence disk;
  disk.device = "/dev/sda";
  disk.driver = "ahci";
  disk.seq.read_mb_per_s = 400;
  e.members = {disk};
  e.volume_fs = "ext4";
  e.volume_seq.read_mb_per_s = 400;
  e.volume_seq.write_mb_per_s = 380;
  e.net.measured = true;
  e.net.down_1_mb_per_s = 112;
  e.net.down_4_mb_per_s = 117;
  e.net.up_1_mb_per_s = 110;
  e.net.up_4_mb_per_s = 116;
  e.net.retransmits = 0;
  e.net.retransmit_pct = 0;
  e.protocol_seq.read_mb_per_s = 110;
  e.protocol_seq.write_mb_per_s = 100;
  e.protocol_label = "SMB 3.1.1";
  e.negotiated = {{"dialect", "3.1.1"}, {"signing", "off"}, {"encryption", "off"}};
  return e;
}

// The seed's PCI NIC: the link path carries 64 MB/s at 1 GbE, CPUs idle, disks 200 MB/s.
inline Evidence PciNic() {
  Evidence e = HealthyGbE();
  e.nas.nic_bus = "pci 0000:02:00.0";
  e.members[0].seq.read_mb_per_s = 200;
  e.volume_seq.read_mb_per_s = 200;
  e.volume_seq.write_mb_per_s = 190;
  e.net.down_1_mb_per_s = 62;
  e.net.down_4_mb_per_s = 64;
  e.net.up_1_mb_per_s = 60;
  e.net.up_4_mb_per_s = 63;
  e.protocol_seq.read_mb_per_s = 60;
  e.protocol_seq.write_mb_per_s = 58;
  return e;
}

// RAID0 of two members reading 100 MB/s each, the volume 120 MB/s.
inline Evidence Raid0TwoMembers() {
  Evidence e = HealthyGbE();
  RaidFacts raid;
  raid.kind = "md";
  raid.level = "raid0";
  raid.members = {"sdb", "sdc"};
  e.raid = raid;
  MemberEvidence m;
  m.driver = "ahci";
  m.seq.read_mb_per_s = 100;
  m.device = "/dev/sdb";
  e.members = {m, m};
  e.members[1].device = "/dev/sdc";
  e.volume_seq.read_mb_per_s = 120;
  e.volume_seq.write_mb_per_s = 115;
  e.protocol_seq.read_mb_per_s = 100;
  e.protocol_seq.write_mb_per_s = 98;
  return e;
}

}  // namespace nasperf::diagnose::testing
