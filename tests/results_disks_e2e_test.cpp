// E2E tests of `nasperf results disks --spec FILE` (issue 17 item 4): runs tagged
// disk=MODEL (measured on null:, and a CrystalDiskMark report imported with known figures)
// become one row per model with the spec's cost, power and interface ceiling; bad spec
// files are one line naming file, line and key, exit 2, and change nothing.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

// A CrystalDiskMark 8 report of a SATA 3 Gbit/s disk whose sequential read sits at the
// interface's ceiling (275 MB/s median of 280 and 270: 92 % of 300).
constexpr const char* kCdmReport = R"(------------------------------------------------------------------------------
CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo
                                  Crystal Dew World: https://crystalmark.info/
------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
  SEQ    1MiB (Q=  8, T= 1):   280.000 MB/s [    267.0 IOPS] < 29000.00 us>
  SEQ    1MiB (Q=  1, T= 1):   270.000 MB/s [    257.5 IOPS] <  3880.00 us>
  RND    4KiB (Q= 32, T=16):    24.576 MB/s [   6000.0 IOPS] < 84590.12 us>
  RND    4KiB (Q=  1, T= 1):     8.192 MB/s [   2000.0 IOPS] <   414.37 us>

[Write]
  SEQ    1MiB (Q=  8, T= 1):   200.000 MB/s [    190.7 IOPS] < 41000.00 us>
  SEQ    1MiB (Q=  1, T= 1):   190.000 MB/s [    181.2 IOPS] <  5500.00 us>
  RND    4KiB (Q= 32, T=16):    12.288 MB/s [   3000.0 IOPS] <179562.30 us>
  RND    4KiB (Q=  1, T= 1):     4.096 MB/s [   1000.0 IOPS] <   740.92 us>

Profile: Default
   Test: 1 GiB (x5) [Z: 42% (1545/3724GiB)]
   Mode: [Admin]
   Time: Measure 5 sec / Interval 5 sec
   Date: 2026/11/30 21:02:45
     OS: Windows 10 Professional [10.0 Build 19045] (x64)
)";

constexpr const char* kSpec = R"(# prices in EUR
[disk."OLD SATA2"]
price = 40
capacity_gb = 500
idle_watts = 4
active_watts = 8
interface = "sata-3g"

[disk.nulldisk]
active_watts = 2
interface = "usb2"

[disk.ghost]
price = 1
)";

class ResultsDisks : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.path() + "/r.db";
    spec_ = dir_.path() + "/disks.toml";
    ASSERT_TRUE(WriteFileBytes(spec_, kSpec));
    std::string cdm = dir_.path() + "/cdm.txt";
    ASSERT_TRUE(WriteFileBytes(cdm, kCdmReport));
    CliResult imported = RunNasperf({"results", "import", cdm, "--tag", "disk=OLD SATA2", "--db", db_});
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
    for (const char* rw : {"read", "read", "read"}) {
      json doc = NasperfJson(
          {"run", "null:", "--rw", rw, "--bs", "1m", "--size", "64m", "--tag", "disk=nulldisk", "--db", db_, "--json"});
      ASSERT_EQ(doc["runs"].size(), 1u);
      null_reads_.push_back(doc["runs"][0]["read"]["mb_per_s"].get<double>());
    }
    json untagged =
        NasperfJson({"run", "null:", "--rw", "write", "--bs", "1m", "--size", "16m", "--db", db_, "--json"});
    ASSERT_EQ(untagged["runs"].size(), 1u);
  }

  std::string RowOf(const std::string& out, const std::string& model) {
    for (const std::string& line : Lines(out))
      if (line.rfind(model + " ", 0) == 0) return line;
    ADD_FAILURE() << "no row for " << model << " in:\n" << out;
    return "";
  }

  TempDir dir_;
  std::string db_, spec_;
  std::vector<double> null_reads_;
};

TEST_F(ResultsDisks, OneRowPerModelWithTheSpecsFiguresAndTheCeiling) {
  CliResult r = RunNasperf({"results", "disks", "--spec", spec_, "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0].rfind("MODEL ", 0), 0u) << r.out;

  // The imported SATA disk: medians 275 / 195 MB/s, 4000 / 2000 IOPS; 40 / 500 GB; 275 / 8 W.
  std::string sata = RowOf(r.out, "OLD SATA2");
  for (const char* cell :
       {"275.0*", "195.0 ", "4000 ", "2000 ", "SATA 3 Gbit/s", " 300 ", "0.0800", "4.0/8.0", "34.4 ", "500.0"})
    EXPECT_TRUE(Contains(sata, cell)) << cell << " not in: " << sata;
  EXPECT_TRUE(
      Contains(r.out, "* OLD SATA2: sequential read 275.0 MB/s sits at the SATA 3 Gbit/s ceiling (92 % of 300 MB/s)"))
      << r.out;
  EXPECT_FALSE(Contains(r.out, "OLD SATA2: sequential write")) << r.out;  // 65 %: not at the ceiling

  // null: moves no bytes through any interface: far above USB 2.0's 40 MB/s, and said so.
  std::string nulldisk = RowOf(r.out, "nulldisk");
  std::vector<double> sorted = null_reads_;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_TRUE(Contains(nulldisk, fmt::format("{:.1f}!", sorted[1]))) << nulldisk << " median " << sorted[1];
  EXPECT_TRUE(Contains(nulldisk, " 3 ")) << nulldisk;  // three runs
  EXPECT_TRUE(Contains(r.out, "! nulldisk: sequential read")) << r.out;
  EXPECT_TRUE(Contains(r.out, "the spec names \"ghost\", but no stored run is tagged disk=ghost")) << r.out;

  // Without a spec: the measured figures alone.
  CliResult bare = RunNasperf({"results", "disks", "--db", db_});
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_TRUE(Contains(RowOf(bare.out, "OLD SATA2"), "275.0 ")) << bare.out;
  EXPECT_FALSE(Contains(bare.out, "SATA 3 Gbit/s")) << bare.out;

  json doc = NasperfJson({"results", "disks", "--spec", spec_, "--db", db_, "--json"});
  EXPECT_TRUE(HasDocumentShape(doc));
  EXPECT_EQ(doc["runs"].size(), 11u);  // 8 imported from the report's read and write, 3 null: reads
  ASSERT_EQ(doc["disks"].size(), 2u);
  EXPECT_EQ(doc["disks"][0]["model"], "OLD SATA2");
  EXPECT_EQ(doc["disks"][0]["seq_read_mb_per_s"]["value"], 275.0);
  EXPECT_EQ(doc["disks"][0]["seq_read_mb_per_s"]["at_ceiling"], true);
  EXPECT_EQ(doc["disks"][0]["ceiling_mb_per_s"], 300.0);
}

TEST_F(ResultsDisks, BadSpecFilesAreOneLineExit2AndChangeNothing) {
  std::string before = ReadFileBytes(db_);
  struct Case {
    const char* text;
    std::string expected;
  } cases[] = {
      {"[disk.a]\nprice = [1,\n", ":2: "},  // syntax
      {"[disk.a]\nprice = 1\nprize = 2\n", ":3: unknown key \"prize\" in [disk.\"a\"]"},
      {"[disk.a]\ncapacity_gb = \"4TB\"\n", ":2: capacity_gb in [disk.\"a\"] must be a number"},
      {"[disk.a]\n\nprice = -3\n", ":3: price in [disk.\"a\"] must be >= 0, not -3"},
      {"[disk.a]\ninterface = \"sata-12g\"\n", ":2: interface in [disk.\"a\"]: unknown interface \"sata-12g\""},
  };
  for (const Case& c : cases) {
    std::string bad = dir_.path() + "/bad.toml";
    ASSERT_TRUE(WriteFileBytes(bad, c.text));
    CliResult r = RunNasperf({"results", "disks", "--spec", bad, "--db", db_});
    EXPECT_EQ(r.exit_code, 2) << c.text;
    EXPECT_EQ(r.out, "") << c.text;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(Contains(r.err, bad + c.expected)) << "expected " << bad + c.expected << "\ngot " << r.err;
  }
  CliResult missing = RunNasperf({"results", "disks", "--spec", dir_.path() + "/none.toml", "--db", db_});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(Lines(missing.err).size(), 1u) << missing.err;
  CliResult directory = RunNasperf({"results", "disks", "--spec", dir_.path(), "--db", db_});
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(Lines(directory.err).size(), 1u) << directory.err;
  EXPECT_EQ(ReadFileBytes(db_), before);

  // A bad spec with no database yet creates none.
  std::string fresh = dir_.path() + "/fresh.db";
  EXPECT_EQ(RunNasperf({"results", "disks", "--spec", dir_.path() + "/bad.toml", "--db", fresh}).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

}  // namespace
}  // namespace nasperf::e2e
