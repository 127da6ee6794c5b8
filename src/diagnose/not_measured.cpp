// NotMeasured: the gaps in the evidence and the rules each leaves unchecked.
#include "diagnose/not_measured.h"

#include <algorithm>

namespace nasperf::diagnose {

std::vector<std::string> NotMeasured(const Evidence& e) {
  std::vector<std::string> out;
  auto add = [&](std::string line) {
    if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(std::move(line));
  };
  for (const std::string& line : e.not_measured) add(line);
  if (!e.agent) {
    add(kNoAgentLine);
    add("no agent: the network not measured (net up and down); run `nasperf agent` on the NAS and pass --agent HOST");
  } else {
    if (!e.nas.measured || !e.nas.cpu_all)
      add("NAS CPU and interrupts not measured (no telemetry from the agent): nas-cpu-saturated, irq-imbalance and "
          "link-path-capped not checked");
    if (e.members.empty())
      add("NAS disks: no member read (the agent needs --allow-volume-members or --allow-device): raid-not-scaling "
          "not checked");
    if (!e.volume_seq.read_mb_per_s && !e.volume_seq.write_mb_per_s)
      add("NAS volume not measured (run --on): disk-limited not checked");
    if (!e.net.measured)
      add("network not measured: link-path-capped, disk-limited and protocol-limited not checked");
    else if (!e.net.retransmits && !e.net.retransmit_pct)
      add("TCP retransmits not counted: link-path-capped not checked");
    if (e.raid && e.raid->kind && !e.raid->level) add("RAID level unknown: no expectation from the members");
  }
  if (!e.client.measured || (!e.client.cpu_all && !e.client_cpu_busy_pct))
    add("client CPU not measured: client-limited and link-path-capped not checked");
  else if (!e.client.cpu_all)  // nasperf's own rusage alone says nothing of the machine's other load
    add("client CPUs not sampled (only nasperf's own process measured): link-path-capped not checked");
  if (!e.client.nic && !e.nas.nic) {
    add("line rate unknown: neither end's NIC speed was read; no % of line rate");
  } else if (!e.client.nic || !e.nas.nic) {
    add(std::string("the ") + (e.client.nic ? "NAS" : "client") +
        "'s NIC not read: the line rate is the other end's alone; mtu-mismatch not checked");
  }
  for (const HostEvidence* h : {&e.client, &e.nas}) {
    if (h->nic && !h->nic_rated_mbps)
      add(std::string(h == &e.client ? "client" : "NAS") +
          " NIC's rated speed unknown: link-below-rating checks its duplex only");
  }
  return out;
}

}  // namespace nasperf::diagnose
