// GatherEvidence and MemberDevices on made-up step outcomes and inventories.
#include "cli/diagnose_evidence.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/inventory_json.h"

namespace nasperf {
namespace {

using nlohmann::ordered_json;

DirectionResult Figures(double mb_per_s, double iops, uint64_t ios, double seconds) {
  DirectionResult d;
  d.mb_per_s = mb_per_s;
  d.iops = iops;
  d.ios = ios;
  d.bytes = ios * 4096;
  d.seconds = seconds;
  return d;
}

StepOutcome Ran(int64_t id, std::optional<DirectionResult> read, std::optional<DirectionResult> write = std::nullopt) {
  StepOutcome o;
  o.ran = true;
  o.result.id = id;
  o.result.read = read;
  o.result.write = write;
  return o;
}

ordered_json NasInventory(bool raid) {
  Inventory inv;
  inv.host = HostInventory{};
  inv.host->hostname = "nas";
  inv.host->cpu.cores_logical = 2;
  inv.host->nics = {NicFacts{.name = "eth0",
                             .speed_mbps = 100,
                             .mtu = 1500,
                             .operstate = "up",
                             .bus = "pci 0000:02:00.0",
                             .rated_mbps = 1000}};
  inv.target = TargetInventory{};
  inv.target->fs.type = "btrfs";
  BlockDevice a{.name = "sdb", .kind = "disk", .model = std::string("WD Red")};
  a.controller_driver = "ata_piix";
  a.link = "SATA 1.5 Gbit/s";
  BlockDevice b{.name = "sdc", .kind = "disk"};
  inv.target->devices = {a, b};
  if (raid) inv.target->raid = RaidFacts{.kind = "btrfs", .level = "raid0", .members = {"/dev/sdb", "/dev/sdc"}};
  return InventoryToJson(inv);
}

ordered_json ClientInventory() {
  Inventory inv;
  inv.host = HostInventory{};
  inv.host->cpu.cores_logical = 4;
  inv.host->nics = {NicFacts{.name = "enp1s0", .speed_mbps = 1000, .mtu = 9000, .operstate = "up"}};
  return InventoryToJson(inv);
}

TEST(DiagnoseEvidence, MembersAreTheRaidsElseTheFileSystemsDevice) {
  EXPECT_EQ(MemberDevices(NasInventory(true)), (std::vector<std::string>{"/dev/sdb", "/dev/sdc"}));
  Inventory stacked;
  stacked.target = TargetInventory{};
  stacked.target->devices = {BlockDevice{.name = "sda1", .kind = "partition", .slaves = {"sda"}},
                             BlockDevice{.name = "sda", .kind = "disk"}};
  EXPECT_EQ(MemberDevices(InventoryToJson(stacked)), (std::vector<std::string>{"/dev/sda1"}));
  EXPECT_TRUE(MemberDevices(ordered_json()).empty());
}

DiagnosePlan DefaultPlan() {
  DiagnosePlanInput pin;
  pin.mode = DiagnoseMode::kDefault;
  pin.agent = true;
  pin.members = {"/dev/sdb"};
  pin.size_bytes = 1 << 30;
  return PlanDiagnose(pin);
}

// Step i moves 10 * (i + 1) MB/s; every up step retransmits 3 of `up_segments` segments
// (the first up step only `first_up_segments`, when given).
std::vector<StepOutcome> FakeOutcomes(const DiagnosePlan& plan, uint64_t up_segments,
                                      std::optional<uint64_t> first_up_segments = std::nullopt) {
  std::vector<StepOutcome> outcomes;
  bool first_up = true;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const DiagnoseStep& s = plan.steps[i];
    const int64_t id = static_cast<int64_t>(i + 1);
    const double mb = 10.0 * static_cast<double>(i + 1);
    if (s.layer == StepLayer::kNetwork) {
      StepOutcome o =
          s.net_dir == "up" ? Ran(id, std::nullopt, Figures(mb, 0, 1000, 10)) : Ran(id, Figures(mb, 0, 1000, 10));
      o.net = net::NetTestResult{};
      o.net->up_retrans = s.net_dir == "up" ? 3 : 0;
      if (s.net_dir == "up") {
        o.net->up_segments = first_up && first_up_segments ? *first_up_segments : up_segments;
        first_up = false;
      }
      outcomes.push_back(o);
    } else if (s.rw == "write" || s.rw == "randwrite") {
      outcomes.push_back(Ran(id, std::nullopt, Figures(mb, 100, 1000, 10)));
    } else {
      StepOutcome o = Ran(id, Figures(mb, 200, 1000, 10));
      o.result.cpu = CpuUsage{40, 60};  // one core fully busy
      outcomes.push_back(o);
    }
  }
  return outcomes;
}

EvidenceInput PathInput() {
  EvidenceInput in;
  in.target = "/mnt/nas";
  in.target_kind = "path";
  in.agent = true;
  in.client_inventory = ClientInventory();
  in.agent_inventory = NasInventory(true);
  return in;
}

TEST(DiagnoseEvidence, EachStepsFiguresGoToItsLayer) {
  DiagnosePlan plan = DefaultPlan();
  std::vector<StepOutcome> outcomes = FakeOutcomes(plan, 0);
  Evidence e = GatherEvidence(PathInput(), plan, outcomes);

  // Steps: client read 1, write 2, rand 3, sdb seq 4, sdb rand 5, volume write 6, read 7,
  // rand 8, net up1 9, up4 10, down1 11, down4 12, target write 13, read 14, rand 15.
  ASSERT_EQ(plan.steps.size(), 15u);
  EXPECT_EQ(e.client_ceiling.read_mb_per_s, 30.0);  // the best of the read steps
  EXPECT_EQ(e.client_ceiling.write_mb_per_s, 20.0);
  EXPECT_EQ(e.client_ceiling.read_iops, 200.0);  // the random step's
  // (40 + 60) % of one core for 10 s over 1000 I/Os: 10 ms each.
  ASSERT_TRUE(e.client_cpu_us_per_io);
  EXPECT_DOUBLE_EQ(*e.client_cpu_us_per_io, 10000.0);
  ASSERT_EQ(e.members.size(), 1u);
  EXPECT_EQ(e.members[0].device, "/dev/sdb");
  EXPECT_EQ(e.members[0].model, "WD Red");
  EXPECT_EQ(e.members[0].driver, "ata_piix");
  EXPECT_EQ(e.members[0].link, "SATA 1.5 Gbit/s");
  EXPECT_EQ(e.members[0].seq.read_mb_per_s, 40.0);
  EXPECT_EQ(e.members[0].rand.read_iops, 200.0);
  EXPECT_EQ(e.volume_seq.write_mb_per_s, 60.0);
  EXPECT_EQ(e.volume_seq.read_mb_per_s, 70.0);
  EXPECT_EQ(e.volume_seq.run_ids, (std::vector<int64_t>{6, 7}));
  EXPECT_EQ(e.volume_rand.read_iops, 200.0);
  EXPECT_TRUE(e.net.measured);
  EXPECT_EQ(e.net.up_1_mb_per_s, 90.0);
  EXPECT_EQ(e.net.up_4_mb_per_s, 100.0);
  EXPECT_EQ(e.net.down_1_mb_per_s, 110.0);
  EXPECT_EQ(e.net.down_4_mb_per_s, 120.0);
  EXPECT_EQ(e.net.retransmits, 6u);  // the client's, on the two up steps
  EXPECT_FALSE(e.net.segments_sent);  // no step counted its segments
  EXPECT_FALSE(e.net.retransmit_pct);
  EXPECT_EQ(e.protocol_seq.write_mb_per_s, 130.0);
  EXPECT_EQ(e.protocol_seq.read_mb_per_s, 140.0);
  EXPECT_EQ(e.protocol_rand.read_iops, 200.0);
  // 100 % of one core of the client's 4.
  EXPECT_EQ(e.client_cpu_busy_pct, 25.0);
  // That is nasperf's own rusage: it is not the client machine's all-CPU peak (no step
  // carried the client's telemetry here).
  EXPECT_FALSE(e.client.cpu_all);
  EXPECT_EQ(e.raid->level, "raid0");
  EXPECT_EQ(e.volume_fs, "btrfs");
  EXPECT_EQ(e.nas.nic->name, "eth0");
  EXPECT_EQ(e.nas.nic_bus, "pci 0000:02:00.0");
  EXPECT_EQ(e.nas.nic_rated_mbps, 1000);
  EXPECT_EQ(e.nas.cores_logical, 2);
  EXPECT_TRUE(e.not_measured.empty()) << e.not_measured.front();
}

// The CI's pci-gbe lab run: a handful of retransmits over a shaped link is TCP at work, not
// a lossy path, and only their share of the segments sent can say so.
TEST(DiagnoseEvidence, RetransmitsAreWeighedAgainstTheSegmentsSent) {
  DiagnosePlan plan = DefaultPlan();
  Evidence e = GatherEvidence(PathInput(), plan, FakeOutcomes(plan, 1000));
  EXPECT_EQ(e.net.retransmits, 6u);
  EXPECT_EQ(e.net.segments_sent, 2000u);
  ASSERT_TRUE(e.net.retransmit_pct);
  EXPECT_DOUBLE_EQ(*e.net.retransmit_pct, 0.3);

  // One up step that could not count its segments leaves the share unknown, not smaller.
  Evidence partly = GatherEvidence(PathInput(), plan, FakeOutcomes(plan, 1000, 0));
  EXPECT_EQ(partly.net.retransmits, 6u);
  EXPECT_FALSE(partly.net.segments_sent);
  EXPECT_FALSE(partly.net.retransmit_pct);
}

TEST(DiagnoseEvidence, GapsAreNamedOneLineEach) {
  DiagnosePlanInput pin;
  pin.mode = DiagnoseMode::kQuick;
  pin.size_bytes = 1 << 20;
  DiagnosePlan plan = PlanDiagnose(pin);  // no agent: client read and write, target write and read
  ASSERT_EQ(plan.steps.size(), 4u);
  std::vector<StepOutcome> outcomes = {Ran(1, Figures(1000, 0, 1000, 1)),
                                       Ran(2, std::nullopt, Figures(1000, 0, 1000, 1)), StepOutcome{}};
  outcomes[2].status = Status::Io("disk full");
  EvidenceInput in;
  in.client_inventory = ClientInventory();
  Evidence e = GatherEvidence(in, plan, outcomes);
  auto has = [&](const std::string& text) {
    return std::any_of(e.not_measured.begin(), e.not_measured.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("step 3 (target seq write 1M): disk full"));
  EXPECT_TRUE(has("step 4 (target seq read 1M): not run"));
  EXPECT_FALSE(e.agent);
  EXPECT_FALSE(e.nas.measured);
  EXPECT_FALSE(e.protocol_seq.write_mb_per_s);  // a failed step measured nothing
}

TEST(DiagnoseEvidence, InterruptLinesCarryTheirLastSampledAffinity) {
  DiagnosePlanInput pin;
  pin.mode = DiagnoseMode::kQuick;
  pin.agent = true;
  DiagnosePlan plan = PlanDiagnose(pin);
  auto sample = [](const char* mask) {
    return ordered_json{{"t_s", 1},
                        {"cpus", ordered_json::array({{{"cpu", 0}, {"busy_pct", 99.0}, {"softirq_pct", 80.0}},
                                                      {{"cpu", 1}, {"busy_pct", 2.0}, {"softirq_pct", 0.0}}})},
                        {"interrupts", ordered_json::array({{{"irq", "24"},
                                                             {"name", "eth0-rx"},
                                                             {"kind", "nic"},
                                                             {"device", "eth0"},
                                                             {"per_cpu_per_s", {9000, 10}},
                                                             {"smp_affinity", mask}}})}};
  };
  // The NAS's CPU is judged on the steps that moved data to or from it: put it on one.
  const auto protocol = std::find_if(plan.steps.begin(), plan.steps.end(),
                                     [](const DiagnoseStep& s) { return s.layer == StepLayer::kProtocol; });
  ASSERT_NE(protocol, plan.steps.end());
  std::vector<StepOutcome> outcomes(static_cast<size_t>(protocol - plan.steps.begin()) + 1);
  StepOutcome& o = outcomes.back() = Ran(1, Figures(100, 0, 1000, 1));
  o.result.telemetry = {{"interval_s", 1}, {"samples", ordered_json::array({sample("3"), sample("1")})}};
  EvidenceInput in;
  in.agent = true;
  in.agent_inventory = NasInventory(false);
  Evidence e = GatherEvidence(in, plan, outcomes);
  ASSERT_EQ(e.nas.irqs.size(), 1u);
  EXPECT_EQ(e.nas.irqs[0].irq, "24");
  EXPECT_EQ(e.nas.irqs[0].top_cpu, 0);
  EXPECT_EQ(e.nas.irqs[0].smp_affinity, "1");  // the later sample's
  ASSERT_TRUE(e.nas.cpu_top);
  EXPECT_EQ(e.nas.cpu_top->cpu, 0);
}

// The lab's NAS shares the client's machine: during the client's own null: ceiling every
// core is busy with the client, which held no NAS step back. Only the protocol's and the
// volume's telemetry is the NAS's CPU under load; there its cgroup was throttled.
TEST(DiagnoseEvidence, TheNasCpuIsTheProtocolStepsTelemetry) {
  DiagnosePlanInput pin;
  pin.mode = DiagnoseMode::kDefault;
  pin.agent = true;
  pin.size_bytes = 1 << 30;
  DiagnosePlan plan = PlanDiagnose(pin);
  auto telemetry = [](double busy, double throttled_pct) {
    ordered_json sample = {
        {"t_s", 1},
        {"cpus", ordered_json::array({{{"cpu", 0}, {"busy_pct", busy}}, {{"cpu", 1}, {"busy_pct", busy}}})},
        {"cgroup",
         {{"path", "/nasperf-lab"}, {"quota_cpus", 0.02}, {"usage_cpus", 0.02}, {"throttled_pct", throttled_pct}}}};
    return ordered_json{{"interval_s", 1}, {"samples", ordered_json::array({sample})}};
  };
  std::vector<StepOutcome> outcomes;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    StepOutcome o = Ran(static_cast<int64_t>(i + 1), Figures(50, 0, 1000, 1));
    const StepLayer layer = plan.steps[i].layer;
    // The volume's own steps run the NAS's disks flat out: busy, but not what held the protocol back.
    o.result.telemetry = layer == StepLayer::kProtocol ? telemetry(30, 79) : telemetry(100, 99);
    outcomes.push_back(o);
  }
  EvidenceInput in;
  in.agent = true;
  in.agent_inventory = NasInventory(false);
  Evidence e = GatherEvidence(in, plan, outcomes);
  ASSERT_TRUE(e.nas.cpu_all);
  EXPECT_EQ(e.nas.cpu_all->busy_pct, 30);  // not the client's or the volume steps' 100
  EXPECT_EQ(e.nas.cgroup_path, "/nasperf-lab");
  EXPECT_EQ(e.nas.cgroup_throttled_pct, 79);  // the protocol steps', not the others' 99
  EXPECT_EQ(e.nas.cgroup_quota_cpus, 0.02);
}

// The client's CPU is its own sampler's around the protocol steps (the lab's pci-gbe case:
// without it, link-path-capped could not tell the client was idle and stayed quiet).
TEST(DiagnoseEvidence, TheClientCpuIsItsOwnSamplersAroundTheProtocolSteps) {
  DiagnosePlan plan = DefaultPlan();
  auto cpus = [](double a, double b) {
    ordered_json sample = {
        {"t_s", 1},
        {"cpus", ordered_json::array({{{"cpu", 0}, {"busy_pct", a}}, {{"cpu", 1}, {"busy_pct", b}}})}};
    return ordered_json{{"interval_s", 1}, {"samples", ordered_json::array({sample})}};
  };
  std::vector<StepOutcome> outcomes = FakeOutcomes(plan, 0);
  for (size_t i = 0; i < plan.steps.size(); ++i)
    outcomes[i].client_telemetry = plan.steps[i].layer == StepLayer::kProtocol ? cpus(20, 40) : cpus(100, 100);
  Evidence e = GatherEvidence(PathInput(), plan, outcomes);
  ASSERT_TRUE(e.client.cpu_all);
  EXPECT_EQ(e.client.cpu_all->busy_pct, 30);  // the protocol steps', not the others' 100
  ASSERT_TRUE(e.client.cpu_top);
  EXPECT_EQ(e.client.cpu_top->cpu, 1);
  EXPECT_EQ(e.client.cpu_top->busy_pct, 40);
  EXPECT_EQ(e.client_cpu_busy_pct, 25.0);  // nasperf's own rusage stays beside it
  EXPECT_FALSE(e.nas.cpu_all);             // the NAS's comes from the agent's telemetry only
}

// A starved agent drops the protocol steps' telemetry; the volume steps still tell the quota.
TEST(DiagnoseEvidence, WithoutTheProtocolStepsTelemetryTheQuotaComesFromTheVolumeSteps) {
  DiagnosePlanInput pin;
  pin.mode = DiagnoseMode::kDefault;
  pin.agent = true;
  pin.size_bytes = 1 << 30;
  DiagnosePlan plan = PlanDiagnose(pin);
  auto telemetry = [](double busy, double throttled_pct) {
    ordered_json sample = {
        {"t_s", 1},
        {"cpus", ordered_json::array({{{"cpu", 0}, {"busy_pct", busy}}, {{"cpu", 1}, {"busy_pct", busy}}})},
        {"cgroup",
         {{"path", "/nasperf-lab"}, {"quota_cpus", 0.02}, {"usage_cpus", 0.02}, {"throttled_pct", throttled_pct}}}};
    return ordered_json{{"interval_s", 1}, {"samples", ordered_json::array({sample})}};
  };
  std::vector<StepOutcome> outcomes;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    StepOutcome o = Ran(static_cast<int64_t>(i + 1), Figures(50, 0, 1000, 1));
    const StepLayer layer = plan.steps[i].layer;
    // The volume's own steps run the NAS's disks flat out: busy, but not what held the protocol back.
    // The protocol steps lost their telemetry; the volume's say the quota throttled them.
    if (layer == StepLayer::kVolume) o.result.telemetry = telemetry(100, 85);
    else if (layer != StepLayer::kProtocol) o.result.telemetry = telemetry(100, 99);
    outcomes.push_back(o);
  }
  EvidenceInput in;
  in.agent = true;
  in.agent_inventory = NasInventory(false);
  Evidence e = GatherEvidence(in, plan, outcomes);
  EXPECT_FALSE(e.nas.cpu_all) << "the volume steps' busy cores are not the NAS's CPU evidence";
  EXPECT_EQ(e.nas.cgroup_path, "/nasperf-lab");
  EXPECT_EQ(e.nas.cgroup_throttled_pct, 85);  // the volume steps', not the client's 99
  EXPECT_EQ(e.nas.cgroup_quota_cpus, 0.02);
}

TEST(DiagnoseEvidence, ACachedReadIsMarkedSo) {
  DiagnosePlanInput pin;
  pin.mode = DiagnoseMode::kQuick;
  DiagnosePlan plan = PlanDiagnose(pin);
  std::vector<StepOutcome> outcomes = {Ran(1, Figures(1000, 0, 1000, 1)), Ran(2, std::nullopt, Figures(900, 0, 1, 1)),
                                       Ran(3, std::nullopt, Figures(90, 0, 1, 1)), Ran(4, Figures(5000, 0, 1000, 1))};
  outcomes[3].result.cached = true;
  Evidence e = GatherEvidence(EvidenceInput{}, plan, outcomes);
  EXPECT_TRUE(e.protocol_seq.cached);
  EXPECT_FALSE(e.client_ceiling.cached);
}

}  // namespace
}  // namespace nasperf
