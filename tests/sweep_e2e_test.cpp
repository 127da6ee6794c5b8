// E2E tests of `nasperf sweep`: the table and the JSON document, cached marks and
// verified cold reads, the stored sweep, --repeat, --direct, Ctrl-C and bad input.
#include <signal.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

constexpr long kTmpfsMagic = 0x01021994;

bool OnTmpfs(const std::string& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && fs.f_type == kTmpfsMagic;
}

std::vector<std::string> Sweep(const TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> args = {"sweep", dir.Sub("data"), "--db", dir.Sub("results.db")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

class SweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    ASSERT_EQ(::mkdir(dir_.Sub("data").c_str(), 0700), 0);
  }
  TempDir dir_;
};

TEST_F(SweepTest, JsonHasEveryPointMarkedAndTheAnalysis) {
  json doc = NasperfJson(Sweep(dir_, {"--min", "64k", "--max", "1m", "--record", "64k,256k", "--json"}));
  ASSERT_TRUE(doc.contains("runs") && doc.contains("sweep")) << doc.dump(2);
  // 64 KiB records: 64 KiB..1 MiB (5 sizes); 256 KiB records: 256 KiB..1 MiB (3); 6 tests each.
  ASSERT_EQ(doc["runs"].size(), (5u + 3u) * 6);
  const bool tmpfs = OnTmpfs(dir_.Sub("data"));
  for (const json& run : doc["runs"]) {
    SCOPED_TRACE(run.dump());
    ASSERT_TRUE(run.contains("cached") && run["cached"].is_boolean());
    std::string test = run["test"];
    const json& figures = test.find("read") != std::string::npos ? run["read"] : run["write"];
    EXPECT_GT(figures["mb_per_s"].get<double>(), 0);
    EXPECT_EQ(figures["bytes"].get<uint64_t>(), run["job"]["size"].get<uint64_t>());
    EXPECT_EQ(run["partial"], false);
    // Cold reads follow a verified drop on a disk file system; everything else fits in RAM.
    if (test == "read" && !tmpfs) {
      EXPECT_EQ(run["cached"], false);
    }
    if (test == "write" || test == "reread") {
      EXPECT_EQ(run["cached"], true);
    }
  }
  const json& sweep = doc["sweep"];
  EXPECT_EQ(sweep["sizes_bytes"], json({65536, 131072, 262144, 524288, 1048576}));
  EXPECT_EQ(sweep["records_bytes"], json({65536, 262144}));
  EXPECT_EQ(sweep["tests"], json({"write", "rewrite", "read", "reread", "randread", "randwrite"}));
  EXPECT_GT(sweep["ram"]["client_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(sweep["cache_cleaning"]["method"], "fsync + posix_fadvise(DONTNEED)");
  EXPECT_EQ(sweep["cache_cleaning"]["drops"], 8);  // one per cold read point
  if (!tmpfs) {
    EXPECT_LT(sweep["cache_cleaning"]["max_resident_pct"].get<double>(), 1.0);
  }
  ASSERT_EQ(sweep["curves"].size(), 12u);
  for (const json& curve : sweep["curves"]) {
    for (const char* key : {"test", "record_bytes", "knee_bytes", "cached_mb_per_s", "uncached_mb_per_s",
                            "client_ram_bytes", "nas_ram_bytes", "verdict"})
      EXPECT_TRUE(curve.contains(key)) << key << " in " << curve.dump();
    EXPECT_FALSE(curve["verdict"].get<std::string>().empty());
    // Cold reads after verified drops cannot show a page-cache knee. (The cached curves may:
    // on a busy machine, a few slow 1 MiB points are a fall the analysis may take for one.)
    if (curve["test"] == "read" && !tmpfs) {
      EXPECT_TRUE(curve["knee_bytes"].is_null()) << curve.dump();
      EXPECT_TRUE(Contains(curve["verdict"], "verified drop")) << curve.dump();
    }
  }
  EXPECT_TRUE(NasperfFiles(dir_.Sub("data")).empty());
}

TEST_F(SweepTest, TableStatesSizesMarksAndAnalysisAndIsStoredAsOneItem) {
  CliResult r = RunNasperf(Sweep(dir_, {"--min", "100k", "--max", "1m", "--tests", "write,read,reread"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << "no progress line when stdout is not a terminal: " << r.err;
  for (const char* text : {"file sizes (5): 100 KiB, 200 KiB, 400 KiB, 800 KiB, 1 MiB", "record 64 KiB",
                           "only whole records", "c = cached", "cache analysis", "page cache before cold reads",
                           "stored as sweep s"})
    EXPECT_TRUE(Contains(r.out, text)) << text << " missing from:\n" << r.out;
  // Columns are the tests, rows the file sizes.
  EXPECT_TRUE(Contains(r.out, "file size         write          read        reread")) << r.out;

  CliResult list = RunNasperf({"results", "list", "--db", dir_.Sub("results.db")});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  ASSERT_EQ(Lines(list.out).size(), 2u) << "one heading and one line for the whole sweep:\n" << list.out;
  EXPECT_TRUE(Contains(list.out, "sweep of 15 points")) << list.out;

  size_t at = r.out.find("stored as sweep s");
  std::string id = r.out.substr(at + 16, r.out.find(' ', at + 16) - at - 16);
  CliResult show = RunNasperf({"results", "show", id, "--db", dir_.Sub("results.db")});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(Contains(show.out, "cache analysis")) << show.out;
  json shown = NasperfJson({"results", "show", id, "--json", "--db", dir_.Sub("results.db")});
  ASSERT_EQ(shown["runs"].size(), 15u);
  EXPECT_EQ(shown["sweep"]["id"], std::stoll(id.substr(1)));
  EXPECT_TRUE(shown["runs"][0].contains("cached"));
}

TEST_F(SweepTest, RepeatKeepsEveryRepeatWithItsSpread) {
  json doc = NasperfJson(Sweep(dir_, {"--min", "1m", "--max", "2m", "--tests", "write,read", "--repeat", "3",
                                      "--json"}));
  ASSERT_EQ(doc["runs"].size(), 4u);
  for (const json& run : doc["runs"]) {
    ASSERT_TRUE(run.contains("repeats")) << run.dump(2);
    EXPECT_EQ(run["repeats"]["count"], 3);
    EXPECT_EQ(run["repeats"]["each"].size(), 3u);
    EXPECT_EQ(run["repeats"]["ci_method"], "Student t on the mean");
    EXPECT_TRUE(run["repeats"]["noisy"].is_boolean());
    EXPECT_TRUE(run["repeats"]["ci95_mb_per_s"].contains("low"));
  }
  EXPECT_EQ(doc["sweep"]["cache_cleaning"]["drops"], 6);  // every repeat of a cold read starts cold
}

TEST_F(SweepTest, DirectHasNoKneeAndSaysWhy) {
  json doc = NasperfJson(Sweep(dir_, {"--min", "64k", "--max", "512k", "--tests", "write,read", "--direct", "--json"}));
  if (doc.empty()) GTEST_SKIP() << "O_DIRECT unsupported here";
  for (const json& run : doc["runs"]) EXPECT_EQ(run["cached"], false);
  for (const json& curve : doc["sweep"]["curves"]) {
    EXPECT_TRUE(curve["knee_bytes"].is_null());
    EXPECT_TRUE(Contains(curve["verdict"], "direct I/O bypasses the page cache")) << curve.dump();
  }
  EXPECT_EQ(doc["sweep"]["cache_cleaning"]["drops"], 0);
}

TEST_F(SweepTest, CtrlCKeepsTheFinishedPointsAsAPartialSweep) {
  std::vector<std::string> args = Sweep(dir_, {"--min", "1m", "--max", "1g", "--record", "1m", "--direct"});
  BackgroundProcess p = StartNasperf(args);
  ASSERT_NE(WaitForNasperfFile(dir_.Sub("data"), 10), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_TRUE(p.Signal(SIGINT)) << "the sweep ended before Ctrl-C";
  CliResult r = p.Finish(10);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_LE(r.elapsed_s, 2.0);
  EXPECT_TRUE(Contains(r.out, "[PARTIAL]")) << r.out;
  EXPECT_TRUE(NasperfFiles(dir_.Sub("data")).empty());
  json list = NasperfJson({"results", "list", "--json", "--db", dir_.Sub("results.db")});
  ASSERT_GE(list["runs"].size(), 2u) << "finished points are stored";
  size_t partial = 0;
  for (const json& run : list["runs"]) partial += run["partial"].get<bool>();
  // Ctrl-C lands inside a point (stored partial) or between two (nothing partial to store).
  EXPECT_LE(partial, 1u) << "only the interrupted point may be partial";
  CliResult show = RunNasperf({"results", "show", "s1", "--db", dir_.Sub("results.db")});
  EXPECT_TRUE(Contains(show.out, "[PARTIAL]")) << show.out;
}

TEST_F(SweepTest, ProgressLineOnlyOnATerminal) {
  if (::access("/usr/bin/script", X_OK) != 0) GTEST_SKIP() << "util-linux script(1) is missing";
  // script(1) gives nasperf a pseudo-terminal for stdout and stderr.
  std::string command = std::string(NasperfBinary()) + " sweep " + dir_.Sub("data") + " --no-store --min 1m --max 8m";
  CliResult r = RunProgram("/usr/bin/script", {"-qec", command, "/dev/null"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "\r\033[K[1/24] 1 MiB write, record 64 KiB")) << r.out;
  EXPECT_TRUE(Contains(r.out, "left")) << "an ETA: " << r.out;
  CliResult json_run = RunProgram("/usr/bin/script", {"-qec", command + " --json", "/dev/null"});
  EXPECT_FALSE(Contains(json_run.out, "[1/24]")) << "no progress with --json";
}

struct BadSweep {
  const char* name;
  std::vector<std::string> args;
  const char* words;
};

void PrintTo(const BadSweep& b, std::ostream* os) { *os << b.name; }

class BadSweepTest : public ::testing::TestWithParam<BadSweep> {};

TEST_P(BadSweepTest, OneClearLineExit2NothingWritten) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.Sub("data").c_str(), 0700), 0);
  std::vector<std::string> args = {"sweep", dir.Sub("data"), "--db", dir.Sub("results.db")};
  args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
  CliResult r = RunNasperf(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, GetParam().words)) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(DirEntries(dir.Sub("data")).empty());
  EXPECT_NE(::access(dir.Sub("results.db").c_str(), F_OK), 0) << "bad input created the database";
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, BadSweepTest,
    ::testing::Values(BadSweep{"min_above_max", {"--min", "2m", "--max", "1m"}, "larger than --max"},
                      BadSweep{"unknown_test", {"--tests", "write,seqread"}, "'seqread' is not a sweep test"},
                      BadSweep{"reread_alone", {"--tests", "reread"}, "add read"},
                      BadSweep{"record_above_every_file", {"--max", "64k", "--record", "1m"}, "every record is larger"},
                      BadSweep{"max_beyond_free_space", {"--max", "900t"}, "does not fit"},
                      BadSweep{"bad_record", {"--record", "64q"}, "--record: '64q'"},
                      BadSweep{"bad_min", {"--min", "lots"}, "--min"},
                      BadSweep{"bad_nas_ram", {"--nas-ram", "0"}, "--nas-ram"},
                      BadSweep{"bad_repeat", {"--repeat", "0"}, "--repeat"},
                      BadSweep{"bad_engine", {"--engine", "aio"}, "--engine"},
                      BadSweep{"bad_tag", {"--tag", "novalue"}, "--tag"}),
    [](const ::testing::TestParamInfo<BadSweep>& info) { return std::string(info.param.name); });

TEST(BadSweepTarget, AFileOrAMissingDirectoryIsRefused) {
  TempDir dir;
  ASSERT_TRUE(WriteFileBytes(dir.Sub("plain"), "x"));
  for (const std::string& target : {dir.Sub("plain"), dir.Sub("missing")}) {
    CliResult r = RunNasperf({"sweep", target, "--db", dir.Sub("results.db")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(Contains(r.err, "is not a directory")) << r.err;
  }
  EXPECT_EQ(ReadFileBytes(dir.Sub("plain")), "x");
}

// Shares: what is wrong is found before any connection (the URLs name loopback, where
// nothing answers on port 1). iSCSI is a LUN, not a file system.
TEST(BadSweepTarget, ShareOptionsAreCheckedBeforeConnecting) {
  TempDir dir;
  ASSERT_TRUE(WriteFileBytes(dir.Sub("secret"), "pw"));
  ASSERT_EQ(::chmod(dir.Sub("secret").c_str(), 0600), 0);
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> words;
  };
  const std::vector<Case> cases = {
      {{"iscsi://127.0.0.1:1/iqn.2026-11.lab.nasperf:lun1/1", "--max", "8m"}, {"not a file system", "run or quick"}},
      {{"nfs://127.0.0.1:1/bench"}, {"no client cache", "--nas-ram", "--max"}},
      {{"smb://u@127.0.0.1:1/bench"}, {"no client cache", "--nas-ram"}},
      {{"nfs://127.0.0.1:1/bench", "--max", "8m", "--direct"}, {"--direct", "no client cache"}},
      {{"smb://u@127.0.0.1:1/bench", "--nas-ram", "1g", "--drop-caches"}, {"--drop-caches", "NAS"}},
      {{"nfs://127.0.0.1:1/bench", "--max", "8m", "--password-file", dir.Sub("secret")}, {"--password-file"}},
      {{"smb://127.0.0.1:1", "--max", "8m"}, {"share"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"sweep"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.insert(args.end(), {"--db", dir.Sub("results.db")});
    SCOPED_TRACE(::testing::PrintToString(args));
    CliResult r = RunNasperf(args, 20);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    for (const std::string& w : c.words) EXPECT_TRUE(Contains(r.err, w)) << "'" << w << "' not in: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_NE(::access(dir.Sub("results.db").c_str(), F_OK), 0) << "bad input created the database";
}

// Root may drop every cache (and the output says so); anyone else is told it needs root.
TEST(BadSweepTarget, DropCachesNeedsRoot) {
  TempDir dir;
  std::vector<std::string> args = {"sweep", dir.path(), "--drop-caches", "--min", "1m", "--max", "1m",
                                   "--tests", "write,read", "--db", dir.Sub("results.db"), "--json"};
  if (::geteuid() == 0) {
    json doc = NasperfJson(args);
    EXPECT_EQ(doc["sweep"]["cache_cleaning"]["method"],
              "fsync + posix_fadvise(DONTNEED) + /proc/sys/vm/drop_caches");
    EXPECT_EQ(doc["sweep"]["cache_cleaning"]["drops"], 1);
    return;
  }
  CliResult r = RunNasperf(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "root")) << r.err;
}

}  // namespace
}  // namespace nasperf::e2e
