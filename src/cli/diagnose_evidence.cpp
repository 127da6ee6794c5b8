// GatherEvidence and MemberDevices.
#include "cli/diagnose_evidence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "diagnose/evidence_from_telemetry.h"
#include "model/inventory_json.h"
#include "sysinfo/volume_members.h"

namespace nasperf {
namespace {

bool IsRandom(const DiagnoseStep& s) { return s.rw == "randread" || s.rw == "randwrite"; }

void Max(std::optional<double>& slot, double value) { slot = std::max(slot.value_or(value), value); }

// A run's figures into its layer's: the best of the steps, as a ceiling is.
void AddFigure(LayerFigure& f, const RunResult& r, bool random) {
  if (DidIo(r.read)) {
    const bool checked_uncached = r.job.direct || r.cached == false;
    f.read_checked_uncached = (f.read_mb_per_s ? f.read_checked_uncached : true) && checked_uncached;
    Max(f.read_mb_per_s, r.read->mb_per_s);
    if (random) Max(f.read_iops, r.read->iops);
  }
  if (DidIo(r.write)) {
    Max(f.write_mb_per_s, r.write->mb_per_s);
    if (random) Max(f.write_iops, r.write->iops);
  }
  if (r.id > 0) f.run_ids.push_back(r.id);
  if (r.cached.value_or(false)) f.cached = true;
}

// The client's CPU over a run, as a share of all its CPUs (RunResult's figures are % of one core).
std::optional<double> AllCpuBusyPct(const RunResult& r, std::optional<int64_t> cores) {
  if (!cores || *cores <= 0) return std::nullopt;
  return (r.cpu.user_pct + r.cpu.sys_pct) / static_cast<double>(*cores);
}

// CPU time per I/O in microseconds: (user + sys) of one core over the run, per I/O.
std::optional<double> CpuUsPerIo(const RunResult& r) {
  const std::optional<DirectionResult>& d = DidIo(r.read) ? r.read : r.write;
  if (!DidIo(d) || d->ios == 0 || d->seconds <= 0) return std::nullopt;
  return (r.cpu.user_pct + r.cpu.sys_pct) / 100.0 * d->seconds / static_cast<double>(d->ios) * 1e6;
}

HostEvidence HostFrom(const nlohmann::ordered_json& inventory) {
  HostEvidence h;
  Inventory inv = InventoryFromJson(inventory);
  h.measured = true;
  if (inv.host) {
    h.hostname = inv.host->hostname;
    h.cores_logical = inv.host->cpu.cores_logical;
  }
  return h;
}

std::optional<NicFacts> NicNamed(const nlohmann::ordered_json& inventory, const std::string& name) {
  Inventory inv = InventoryFromJson(inventory);
  if (!inv.host) return std::nullopt;
  for (const NicFacts& n : inv.host->nics)
    if (n.name == name) return n;
  return std::nullopt;
}

// The NAS's interface on the path: the agent's inventory lists every interface but not
// which one the client reached, so only a single interface that is up is taken.
std::optional<NicFacts> OnlyUpNic(const nlohmann::ordered_json& inventory, size_t* up) {
  Inventory inv = InventoryFromJson(inventory);
  std::vector<NicFacts> nics;
  if (inv.host)
    for (const NicFacts& n : inv.host->nics)
      if (n.operstate == "up") nics.push_back(n);
  *up = nics.size();
  if (nics.size() == 1) return nics.front();
  return std::nullopt;
}

// The NIC's facts on the path, with its bus and rated speed where the inventory has them.
void SetNic(HostEvidence& h, std::optional<NicFacts> nic) {
  h.nic = std::move(nic);
  if (!h.nic) return;
  h.nic_bus = h.nic->bus;
  h.nic_rated_mbps = h.nic->rated_mbps;
}

void AddNet(Evidence& e, const DiagnoseStep& step, const StepOutcome& o) {
  NetEvidence& n = e.net;
  const RunResult& r = o.result;
  const bool up = step.net_dir == "up";
  const std::optional<DirectionResult>& d = up ? r.write : r.read;
  if (!DidIo(d)) return;
  n.measured = true;
  std::optional<double>& slot = up ? (step.streams == 1 ? n.up_1_mb_per_s : n.up_4_mb_per_s)
                                   : (step.streams == 1 ? n.down_1_mb_per_s : n.down_4_mb_per_s);
  slot = d->mb_per_s;
  if (r.id > 0) n.run_ids.push_back(r.id);
  if (up && o.net) {
    // The client sends the up streams, so their retransmits are the client's to count.
    // A few retransmits over a shaped link are TCP at work, so the rules weigh their share
    // of the segments sent; one step without a segment count leaves only the count.
    const bool first_up = !n.retransmits;
    n.retransmits = n.retransmits.value_or(0) + o.net->up_retrans;
    if (o.net->up_segments > 0 && (first_up || n.segments_sent))
      n.segments_sent = n.segments_sent.value_or(0) + o.net->up_segments;
    else
      n.segments_sent.reset();
    n.retransmit_pct.reset();
    if (n.segments_sent)
      n.retransmit_pct = 100.0 * static_cast<double>(*n.retransmits) / static_cast<double>(*n.segments_sent);
  }
}

}  // namespace

std::vector<std::string> MemberDevices(const nlohmann::ordered_json& agent_inventory) {
  Inventory inv = InventoryFromJson(agent_inventory);
  if (!inv.target) return {};
  // The agent's own rule (agent --allow-volume-members allows exactly these).
  std::vector<std::string> names = sysinfo::VolumeMembers(*inv.target);
  for (std::string& n : names)
    if (n.empty() || n[0] != '/') n = "/dev/" + n;
  return names;
}

Evidence GatherEvidence(const EvidenceInput& in, const DiagnosePlan& plan, const std::vector<StepOutcome>& outcomes) {
  Evidence e;
  e.target = in.target;
  e.target_kind = in.target_kind;
  e.mode = DiagnoseModeName(in.mode);
  e.agent = in.agent;
  e.client = HostFrom(in.client_inventory);
  e.not_measured = in.not_measured;
  e.stated_line_rate_mbps = in.line_rate_mbps;
  if (in.agent) {
    e.nas = HostFrom(in.agent_inventory);
    Inventory nas = InventoryFromJson(in.agent_inventory);
    if (nas.target) {
      if (nas.target->raid && nas.target->raid->kind) e.raid = nas.target->raid;
      e.volume_fs = nas.target->fs.type;
    }
    size_t up = 0;
    SetNic(e.nas, OnlyUpNic(in.agent_inventory, &up));
    if (!e.nas.nic)
      e.not_measured.push_back(
          fmt::format("NAS NIC: not identified ({} interfaces up in the agent's inventory; which one the client "
                      "reached is not known)",
                      up));
    // Every step's telemetry is the NAS's (the agent samples it around every step), but its
    // CPU is judged only where it served the end-to-end figure the rules weigh: the protocol
    // steps. During the client's null: ceiling a NAS sharing the client's machine (the lab,
    // a container) shows the client's own load, and its volume steps run the NAS's disks at
    // full speed on purpose (busy cores there held no protocol step back, and on the lab
    // they hid a PCI NIC's link-path cap behind a busy CPU).
    std::vector<nlohmann::ordered_json> telemetry, volume_telemetry;
    for (size_t i = 0; i < outcomes.size() && i < plan.steps.size(); ++i) {
      const StepLayer layer = plan.steps[i].layer;
      const StepOutcome& o = outcomes[i];
      if (!o.ran || !o.result.telemetry.is_object()) continue;
      if (layer == StepLayer::kProtocol) telemetry.push_back(o.result.telemetry);
      if (layer == StepLayer::kVolume) volume_telemetry.push_back(o.result.telemetry);
    }
    AddTelemetryEvidence(telemetry, &e.nas);
    // The cgroup quota is the NAS services' whatever step ran: when the protocol steps'
    // telemetry is missing (a starved agent drops its telemetry connection, as the lab's at
    // --nas-cpu 2 did), the volume steps' — which the agent runs itself and always reports —
    // still say whether the quota throttled them. Their busy cores are not taken (above).
    if (!e.nas.cgroup_path) {
      HostEvidence volume;
      AddTelemetryEvidence(volume_telemetry, &volume);
      e.nas.cgroup_path = volume.cgroup_path;
      e.nas.cgroup_quota_cpus = volume.cgroup_quota_cpus;
      e.nas.cgroup_usage_cpus = volume.cgroup_usage_cpus;
      e.nas.cgroup_throttled_pct = volume.cgroup_throttled_pct;
    }
  }  // without an agent, the rules name what that leaves unmeasured (diagnose/not_measured.h)
  // The client's CPUs at the busiest second of the protocol steps, from its own sampler.
  std::vector<nlohmann::ordered_json> client_telemetry;
  for (size_t i = 0; i < outcomes.size() && i < plan.steps.size(); ++i)
    if (plan.steps[i].layer == StepLayer::kProtocol && outcomes[i].ran && outcomes[i].client_telemetry.is_object())
      client_telemetry.push_back(outcomes[i].client_telemetry);
  AddTelemetryEvidence(client_telemetry, &e.client);
  Inventory client = InventoryFromJson(in.client_inventory);
  if (client.target && client.target->network && client.target->network->nic)
    SetNic(e.client, client.target->network->nic);

  std::map<std::string, size_t> member_at;  // device -> index in e.members
  for (size_t i = 0; i < outcomes.size() && i < plan.steps.size(); ++i) {
    const DiagnoseStep& step = plan.steps[i];
    const StepOutcome& o = outcomes[i];
    if (o.skipped) e.not_measured.push_back(o.note);
    if (!o.status.ok() && o.status.kind() != ErrorKind::kInterrupted)
      e.not_measured.push_back(fmt::format("step {} ({}): {}", i + 1, step.label, o.status.message()));
    if (!o.ran) continue;
    const RunResult& r = o.result;
    const bool random = IsRandom(step);
    switch (step.layer) {
      case StepLayer::kClient: {
        AddFigure(e.client_ceiling, r, random);
        // CPU per I/O from the smallest I/Os measured (4k random when it ran).
        if (std::optional<double> us = CpuUsPerIo(r); us && (random || !e.client_cpu_us_per_io))
          e.client_cpu_us_per_io = us;
        break;
      }
      case StepLayer::kMember: {
        auto [it, added] = member_at.try_emplace(step.device, e.members.size());
        if (added) {
          MemberEvidence m;
          m.device = step.device;
          Inventory nas = InventoryFromJson(in.agent_inventory);
          const std::string name = step.device.substr(step.device.rfind('/') + 1);
          if (nas.target)
            for (const BlockDevice& d : nas.target->devices)
              if (d.name == name) {
                m.model = d.model;
                m.driver = d.controller_driver;
                m.link = d.link;
              }
          e.members.push_back(m);
        }
        AddFigure(random ? e.members[it->second].rand : e.members[it->second].seq, r, random);
        break;
      }
      case StepLayer::kVolume:
        AddFigure(random ? e.volume_rand : e.volume_seq, r, random);
        break;
      case StepLayer::kNetwork:
        AddNet(e, step, o);
        if (!e.client.nic && o.net) SetNic(e.client, NicNamed(in.client_inventory, o.net->facts.interface));
        break;
      case StepLayer::kProtocol: {
        AddFigure(random ? e.protocol_rand : e.protocol_seq, r, random);
        // nasperf's own process (its rusage), beside the machine's client.cpu_all above.
        if (std::optional<double> busy = AllCpuBusyPct(r, e.client.cores_logical))
          if (!e.client_cpu_busy_pct || *busy > *e.client_cpu_busy_pct) e.client_cpu_busy_pct = busy;
        if (r.protocol && !e.protocol_label) {
          e.protocol_label = r.protocol->label();
          if (!r.protocol->version.empty()) e.negotiated.emplace_back("version", r.protocol->version);
          for (const auto& kv : r.protocol->options) e.negotiated.push_back(kv);
        }
        break;
      }
    }
  }
  for (size_t i = outcomes.size(); i < plan.steps.size(); ++i)
    e.not_measured.push_back(fmt::format("step {} ({}): not run", i + 1, plan.steps[i].label));
  return e;
}

}  // namespace nasperf
