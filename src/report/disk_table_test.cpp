// Tests of the disk table: which runs give which figure, medians over runs and repeats,
// the spec's derived figures, and the interface ceiling marks.
#include "report/disk_table.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

RunResult TaggedRun(const std::string& disk, AccessPattern rw, uint64_t bs, double mb_per_s, double iops) {
  RunResult r;
  if (!disk.empty()) r.tags["disk"] = disk;
  r.job.rw = rw;
  r.job.bs = bs;
  DirectionResult d;
  d.ios = 100;
  d.bytes = 100 * bs;
  d.mb_per_s = mb_per_s;
  d.iops = iops;
  if (DoesReads(rw)) r.read = d;
  if (DoesWrites(rw)) r.write = d;
  return r;
}

DiskSpec Spec(const std::string& model, const char* interface) {
  DiskSpec s;
  s.model = model;
  s.price = 100;
  s.capacity_gb = 4000;
  s.idle_watts = 2.5;
  s.active_watts = 5;
  s.interface = FindInterface(interface);
  return s;
}

TEST(DiskTable, PicksEachFigureFromTheMatchingJobs) {
  std::vector<RunResult> runs = {
      TaggedRun("A", AccessPattern::kRead, 1 << 20, 150, 150),
      TaggedRun("A", AccessPattern::kRead, 128 << 10, 170, 1300),
      TaggedRun("A", AccessPattern::kRead, 1 << 20, 160, 160),
      TaggedRun("A", AccessPattern::kRead, 64 << 10, 999, 999),  // too small a block for sequential
      TaggedRun("A", AccessPattern::kWrite, 1 << 20, 140, 140),
      TaggedRun("A", AccessPattern::kRandRead, 4096, 0.4, 100),
      TaggedRun("A", AccessPattern::kRandRead, 8192, 9, 9999),  // not 4k
      TaggedRun("A", AccessPattern::kRandWrite, 4096, 0.8, 200),
      TaggedRun("A", AccessPattern::kReadWrite, 1 << 20, 999, 999),  // mixed: neither
      TaggedRun("", AccessPattern::kRead, 1 << 20, 999, 999),        // untagged
      TaggedRun("B", AccessPattern::kRead, 1 << 20, 30, 30),
  };
  RunResult partial = TaggedRun("A", AccessPattern::kRead, 1 << 20, 1, 1);
  partial.partial = true;
  RunResult cached = TaggedRun("A", AccessPattern::kRead, 1 << 20, 5000, 1);
  cached.cached = true;
  runs.push_back(partial);
  runs.push_back(cached);
  RunResult repeated = TaggedRun("B", AccessPattern::kRandRead, 4096, 0, 0);
  repeated.repeats = {RepeatFigures{.read_iops = 80}, RepeatFigures{.read_iops = 90}, RepeatFigures{.read_iops = 95}};
  runs.push_back(repeated);

  DiskTable table = BuildDiskTable(runs, {});
  ASSERT_EQ(table.rows.size(), 2u);
  const DiskRow& a = table.rows[0];
  EXPECT_EQ(a.model, "A");
  EXPECT_EQ(a.seq_read_mb_per_s.value, 160);  // median of 150, 170, 160
  EXPECT_EQ(a.seq_read_mb_per_s.runs, 3);
  EXPECT_EQ(a.seq_write_mb_per_s.value, 140);
  EXPECT_EQ(a.rand_read_iops.value, 100);
  EXPECT_EQ(a.rand_write_iops.value, 200);
  EXPECT_FALSE(a.cost_per_gb.has_value());
  const DiskRow& b = table.rows[1];
  EXPECT_EQ(b.rand_read_iops.value, 90);  // the repeats' median, not the run's own zero
  EXPECT_EQ(b.rand_read_iops.runs, 1);
  EXPECT_FALSE(b.seq_write_mb_per_s.value.has_value());
  EXPECT_EQ(table.runs_left_out, 2);
}

TEST(DiskTable, SpecGivesCostPowerAndTheCeiling) {
  std::vector<RunResult> runs = {
      TaggedRun("sata2", AccessPattern::kRead, 1 << 20, 280, 280),   // 93 % of 300: at the ceiling
      TaggedRun("sata2", AccessPattern::kWrite, 1 << 20, 200, 200),  // 67 %: not
      TaggedRun("sata2", AccessPattern::kRandRead, 4096, 1, 250),
      TaggedRun("usb", AccessPattern::kRead, 1 << 20, 45, 45),  // above USB 2.0's 40 MB/s
      TaggedRun("nospec", AccessPattern::kRead, 1 << 20, 100, 100),
  };
  DiskTable table = BuildDiskTable(runs, {Spec("sata2", "sata-3g"), Spec("usb", "usb2"), Spec("ghost", "sata-6g")});
  ASSERT_EQ(table.rows.size(), 3u);
  const DiskRow& nospec = table.rows[0];
  EXPECT_FALSE(nospec.spec.has_value());
  EXPECT_FALSE(nospec.seq_read_mb_per_s.at_ceiling);
  const DiskRow& sata = table.rows[1];
  EXPECT_EQ(sata.model, "sata2");
  EXPECT_DOUBLE_EQ(*sata.cost_per_gb, 0.025);
  EXPECT_DOUBLE_EQ(*sata.mb_per_s_per_watt, 56);
  EXPECT_DOUBLE_EQ(*sata.iops_per_watt, 50);
  EXPECT_TRUE(sata.seq_read_mb_per_s.at_ceiling);
  EXPECT_FALSE(sata.seq_write_mb_per_s.at_ceiling);
  const DiskRow& usb = table.rows[2];
  EXPECT_TRUE(usb.seq_read_mb_per_s.above_ceiling);
  EXPECT_FALSE(usb.seq_read_mb_per_s.at_ceiling);
  EXPECT_EQ(table.specs_without_runs, std::vector<std::string>{"ghost"});

  std::vector<std::string> lines = DiskTableLines(table);
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  EXPECT_NE(all.find("280.0*"), std::string::npos) << all;
  EXPECT_NE(all.find("200.0 "), std::string::npos) << all;
  EXPECT_NE(all.find("45.0!"), std::string::npos) << all;
  EXPECT_NE(all.find("* sata2: sequential read 280.0 MB/s sits at the SATA 3 Gbit/s ceiling (93 % of 300 MB/s)"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("! usb: sequential read 45.0 MB/s is above what USB 2.0 carries (40 MB/s)"), std::string::npos)
      << all;
  EXPECT_NE(all.find("the spec names \"ghost\", but no stored run is tagged disk=ghost"), std::string::npos) << all;
  EXPECT_NE(all.find("0.0250"), std::string::npos) << all;  // price per GB

  nlohmann::ordered_json json = DiskTableJson(table);
  EXPECT_EQ(json["disks"][1]["seq_read_mb_per_s"]["at_ceiling"], true);
  EXPECT_EQ(json["disks"][1]["interface"], "sata-3g");
  EXPECT_EQ(json["disks"][0]["interface"], nullptr);
}

TEST(DiskTable, NoTaggedRunsSaysHowToTagThem) {
  std::vector<std::string> lines =
      DiskTableLines(BuildDiskTable({TaggedRun("", AccessPattern::kRead, 1 << 20, 1, 1)}, {}));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "no stored runs are tagged disk=MODEL (run ... --tag disk=MODEL)");
}

}  // namespace
}  // namespace nasperf
