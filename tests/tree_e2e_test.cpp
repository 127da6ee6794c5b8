// E2E tests of `nasperf tree gen`: the plan's statistics as text and JSON (nothing written),
// the same seed giving the same tree, --to writing, checking and removing the tree (Ctrl-C
// too), and bad input as one line with exit status 2.
#include <signal.h>
#include <unistd.h>

#include <cmath>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

TEST(TreeE2eTest, DryRunPrintsTheAchievedStatisticsAndWritesNothing) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"tree", "gen", "--preset", "win7-system", "--seed", "3"}, 60, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* label : {"files       73836", "median", "mean", "p90", "p99", "over 1 MiB", "depth", "seed 3"})
    EXPECT_TRUE(Contains(r.out, label)) << label << "\n" << r.out;
  EXPECT_TRUE(Contains(r.out, "nothing written")) << r.out;
  EXPECT_TRUE(DirEntries(dir.path()).empty());
}

TEST(TreeE2eTest, JsonCarriesThePresetsCountsAndTheFitToTheTarget) {
  json doc = NasperfJson({"tree", "gen", "--preset", "win7-system", "--seed", "3", "--json"});
  ASSERT_TRUE(doc.contains("tree")) << doc.dump();
  EXPECT_TRUE(doc["nasperf"]["version"].is_string());
  const json& t = doc["tree"];
  EXPECT_EQ(t["generator"], "nasperf-tree 1");
  EXPECT_EQ(t["files"], 73836);
  const double target = 13.2 * (1 << 30);
  EXPECT_NEAR(t["bytes"].get<double>(), target, target * 0.01);
  EXPECT_NEAR(t["files_per_dir"].get<double>(), 10.2, 0.1);
  EXPECT_NEAR(t["mean_file_depth"].get<double>(), 7, 0.5);
  EXPECT_LT(t["median_bytes"].get<double>(), t["mean_bytes"].get<double>());
  EXPECT_LE(t["p90_bytes"].get<double>(), t["p99_bytes"].get<double>());
  EXPECT_FALSE(t.contains("digest"));  // not computed unless asked
}

TEST(TreeE2eTest, ScaleKeepsTheShapeAndScalesFilesAndBytes) {
  json full = NasperfJson({"tree", "gen", "--preset", "media", "--seed", "5", "--json"});
  json tenth = NasperfJson({"tree", "gen", "--preset", "media", "--seed", "5", "--scale", "0.1", "--json"});
  ASSERT_TRUE(full.contains("tree") && tenth.contains("tree"));
  EXPECT_EQ(tenth["tree"]["files"], 3600);
  EXPECT_NEAR(tenth["tree"]["bytes"].get<double>(), 1.5e9, 1.5e7);
  EXPECT_NEAR(tenth["tree"]["files_per_dir"].get<double>(), full["tree"]["files_per_dir"].get<double>(), 0.2);
  // 3,600 files: the median's own error is ~0.05 in ln(bytes), and mu's fit moves with how
  // large the 4 tail files happen to be; 0.3 is within 35 %.
  EXPECT_NEAR(std::log(tenth["tree"]["median_bytes"].get<double>()),
              std::log(full["tree"]["median_bytes"].get<double>()), 0.3);
}

TEST(TreeE2eTest, SameSeedSameDigestOtherSeedOther) {
  auto digest = [](const char* seed) {
    json doc =
        NasperfJson({"tree", "gen", "--preset", "small-files", "--scale", "0.1", "--seed", seed, "--digest", "--json"});
    return doc["tree"].value("digest", std::string());
  };
  const std::string a = digest("11");
  EXPECT_EQ(a.rfind("sha256:", 0), 0u) << a;
  EXPECT_EQ(a, digest("11"));
  EXPECT_NE(a, digest("12"));
}

TEST(TreeE2eTest, ToADirectoryWritesChecksAndRemovesTheTree) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  json dry =
      NasperfJson({"tree", "gen", "--preset", "small-files", "--scale", "0.05", "--seed", "21", "--digest", "--json"});
  CliResult r = RunNasperf(
      {"tree", "gen", "--preset", "small-files", "--scale", "0.05", "--seed", "21", "--to", dir.path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  // What was written and read back hashes to what the generator says the tree is.
  EXPECT_EQ(doc["tree"]["digest"], dry["tree"]["digest"]);
  EXPECT_TRUE(Contains(doc["tree"]["written"]["to"].get<std::string>(), dir.path())) << r.out;
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "the workspace was left behind";
}

// --keep: the checked tree stays for other tools to copy (bench/vs-copy-tools).
TEST(TreeE2eTest, KeepLeavesTheCheckedTreeWhereItSays) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"tree", "gen", "--preset", "small-files", "--scale", "0.05", "--seed", "21", "--to",
                            dir.path(), "--keep", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  EXPECT_EQ(doc["tree"]["written"]["removed"], false);
  const std::string where = doc["tree"]["written"]["to"];
  size_t files = 0;
  uint64_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(where))
    if (e.is_regular_file()) ++files, bytes += e.file_size();
  EXPECT_EQ(files, doc["tree"]["files"].get<size_t>());
  EXPECT_EQ(bytes, doc["tree"]["bytes"].get<uint64_t>());
  EXPECT_NE(r.err.find(where), std::string::npos) << "says where it wrote: " << r.err;
  CliResult dry = RunNasperf({"tree", "gen", "--preset", "small-files", "--keep"});
  EXPECT_EQ(dry.exit_code, 2);
  EXPECT_NE(dry.err.find("--keep needs --to"), std::string::npos) << dry.err;
}

TEST(TreeE2eTest, ToWhatIsNotADirectoryIsBadInput) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFileBytes(dir.path() + "/file", "x"));
  for (const std::string& to : {dir.path() + "/file", dir.path() + "/missing", std::string("null:")}) {
    CliResult r = RunNasperf({"tree", "gen", "--preset", "small-files", "--scale", "0.01", "--to", to});
    EXPECT_EQ(r.exit_code, 2) << to << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(DirEntries(dir.path()).size(), 1u);
}

TEST(TreeE2eTest, CtrlCWhileWritingRemovesTheWorkspace) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // 1.4 GB planned; the signal comes as soon as the workspace appears, so little is written.
  BackgroundProcess p =
      StartNasperf({"tree", "gen", "--preset", "win7-system", "--scale", "0.1", "--seed", "4", "--to", dir.path()});
  for (int i = 0; i < 3000 && NasperfFiles(dir.path()).empty(); ++i) usleep(1000);
  ASSERT_FALSE(NasperfFiles(dir.path()).empty()) << "no workspace appeared";
  ASSERT_TRUE(p.Signal(SIGINT));
  CliResult r = p.Finish(60);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "the workspace was left behind";
}

TEST(TreeE2eTest, BadInputIsOneLineAndExitTwo) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--preset", "win8"}, "win8"},
      {{"--preset", "media", "--scale", "0"}, "--scale"},
      {{"--preset", "media", "--scale", "-1"}, "--scale"},
      {{"--preset", "media", "--scale", "abc"}, "--scale"},
      {{"--preset", "media", "--scale", "1x"}, "--scale"},
      {{"--preset", "media", "--scale", "nan"}, "--scale"},
      {{"--preset", "media", "--scale", "1e-9"}, "--scale"},
      {{"--preset", "media", "--scale", "1e9"}, "--scale"},
      {{"--preset", "media", "--seed", "abc"}, "--seed"},
      {{"--preset", "media", "--seed", "-1"}, "--seed"},
      {{"--preset", "media", "--seed", "99999999999999999999"}, "--seed"},
      {{}, "--preset"},
  };
  for (const auto& [extra, named] : cases) {
    std::vector<std::string> args = {"tree", "gen"};
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = RunNasperf(args, 60, dir.path());
    EXPECT_EQ(r.exit_code, 2) << Join(args) << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << Join(args) << ": " << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << Join(args) << ": " << r.err;
    EXPECT_TRUE(Contains(r.err, named)) << Join(args) << ": " << r.err;
  }
  EXPECT_TRUE(DirEntries(dir.path()).empty()) << "bad input wrote something";
}

}  // namespace
}  // namespace nasperf::e2e
