// Mixed block sizes, % random and distributions from the command line (issue 19, items 1
// and 2): the JSON's per-size figures add up to the totals, a size-bound pass with a mix
// moves at most --size, per-direction mixes land on their direction, and a plain job's
// document is what it always was.
#include <filesystem>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

json OneRun(const std::vector<std::string>& args) {
  json doc = NasperfJson(args);
  if (!doc.contains("runs") || doc["runs"].size() != 1) {
    ADD_FAILURE() << "no single run in: " << doc.dump();
    return json::object();
  }
  return doc["runs"][0];
}

TEST(WorkloadMixE2e, SizeBoundMixMovesAtMostSizeAndReportsEachSize) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = OneRun(
      {"run", dir.path(), "--rw", "write", "--bs", "4k/50:64k/50", "--size", "64m", "--engine", "psync", "--json"});
  ASSERT_TRUE(run.contains("write")) << run.dump(2);
  EXPECT_EQ(run["job"]["bs"], 65536);  // the largest size: what the buffers were sized by
  EXPECT_EQ(run["job"]["bs_split"], json::parse(R"([{"bs":4096,"pct":50},{"bs":65536,"pct":50}])"));
  const uint64_t total = run["write"]["bytes"];
  EXPECT_LE(total, 64ull << 20);
  EXPECT_GT(total, (64ull << 20) - 65536);
  ASSERT_TRUE(run.contains("per_size")) << run.dump(2);
  ASSERT_EQ(run["per_size"].size(), 2u);
  uint64_t bytes = 0, ios = 0;
  for (const json& size : run["per_size"]) {
    ASSERT_TRUE(size.contains("write")) << size.dump();
    EXPECT_FALSE(size.contains("read")) << "a write job's sizes have no read figures";
    EXPECT_EQ(size["write"]["bytes"].get<uint64_t>(),
              size["write"]["ios"].get<uint64_t>() * size["bs"].get<uint64_t>());
    EXPECT_GT(size["write"]["lat_us"]["max"].get<double>(), 0);
    bytes += size["write"]["bytes"].get<uint64_t>();
    ios += size["write"]["ios"].get<uint64_t>();
  }
  EXPECT_EQ(run["per_size"][0]["bs"], 4096);
  EXPECT_EQ(run["per_size"][1]["bs"], 65536);
  EXPECT_EQ(bytes, total);
  EXPECT_EQ(ios, run["write"]["ios"].get<uint64_t>());
  // About 2,000 I/Os at 50/50: the share of 4 KiB ones is 50 % give or take 1.1 % (one sigma).
  const double small_pct = 100.0 * run["per_size"][0]["write"]["ios"].get<double>() / static_cast<double>(ios);
  EXPECT_NEAR(small_pct, 50, 6);
  EXPECT_TRUE(NasperfFiles(dir.path()).empty());
}

TEST(WorkloadMixE2e, PerDirectionMixesLandOnTheirDirection) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = OneRun({"run", dir.path(), "--rw", "randrw", "--bs-read", "4k", "--bs-write", "64k/100", "--size", "16m",
                     "--engine", "psync", "--json"});
  EXPECT_EQ(run["job"]["bs"], 65536);
  ASSERT_EQ(run["per_size"].size(), 2u) << run.dump(2);
  EXPECT_EQ(run["per_size"][0]["bs"], 4096);
  EXPECT_TRUE(run["per_size"][0].contains("read"));
  EXPECT_FALSE(run["per_size"][0].contains("write"));
  EXPECT_EQ(run["per_size"][1]["bs"], 65536);
  EXPECT_TRUE(run["per_size"][1].contains("write"));
  EXPECT_FALSE(run["per_size"][1].contains("read"));
  EXPECT_EQ(run["per_size"][0]["read"]["bytes"], run["read"]["bytes"]);
  EXPECT_EQ(run["per_size"][1]["write"]["bytes"], run["write"]["bytes"]);
}

TEST(WorkloadMixE2e, ThePlainJobsDocumentIsUnchanged) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run =
      OneRun({"run", dir.path(), "--rw", "randwrite", "--bs", "4k", "--size", "1m", "--engine", "psync", "--json"});
  EXPECT_FALSE(run.contains("per_size"));
  for (const char* key : {"bs_split", "bs_read", "bs_write", "random_pct", "dist", "align"})
    EXPECT_FALSE(run["job"].contains(key)) << key;
  EXPECT_EQ(run["write"]["ios"], 256);
}

TEST(WorkloadMixE2e, RandomShareAndDistributionRunAndAreRecorded) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = OneRun({"run", dir.path(), "--rw", "write", "--random", "30", "--dist", "hotspot:80/20", "--bs", "4k",
                     "--align", "4k", "--size", "4m", "--engine", "psync", "--json"});
  EXPECT_EQ(run["job"]["random_pct"], 30);
  EXPECT_EQ(run["job"]["dist"], "hotspot:80/20");
  EXPECT_EQ(run["job"]["align"], 4096);
  EXPECT_EQ(run["write"]["bytes"], 4 << 20);  // a pass of 4 KiB I/Os is --size, whatever their offsets
  EXPECT_FALSE(run.contains("per_size"));     // one size: the totals say it all
}

TEST(WorkloadMixE2e, TableShowsTheMixAndALinePerSize) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"run", dir.path(), "--rw", "randread", "--bs", "4k/30:64k/70", "--size", "8m", "--engine",
                            "psync", "--random", "50"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "randread bs 4k/30:64k/70, 50 % random QD1")) << r.out;
  EXPECT_TRUE(Contains(r.out, "\n4K read ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "\n64K read ")) << r.out;
}

TEST(WorkloadMixE2e, AStoredMixShowsItsSizesAgain) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json run = OneRun(
      {"run", dir.path(), "--rw", "write", "--bs", "4k/50:64k/50", "--size", "4m", "--engine", "psync", "--json"});
  ASSERT_TRUE(run.contains("id")) << run.dump(2);
  const std::string id = std::to_string(run["id"].get<int64_t>());
  CliResult shown = RunNasperf({"results", "show", id});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(Contains(shown.out, "\n4K write ")) << shown.out;
  EXPECT_TRUE(Contains(shown.out, "\n64K write ")) << shown.out;
  json exported = NasperfJson({"results", "show", id, "--json"});
  ASSERT_EQ(exported["runs"].size(), 1u) << exported.dump(2);
  EXPECT_EQ(exported["runs"][0]["per_size"], run["per_size"]);
}

}  // namespace
}  // namespace nasperf::e2e
