// E2E tests of `nasperf quick`: the eight runs, the table and units, direct I/O or a stated fall-back, cleanup.
#include <sys/mount.h>

#include <string>
#include <vector>

#include "cli_harness.h"
#include "testing/sizes.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

using testing::kMiB;

struct Expected {
  const char* test;
  const char* rw;
  uint64_t bs;
  uint32_t qd;
};

// CrystalDiskMark's default set, each read then write, in this order.
constexpr Expected kExpected[] = {
    {"SEQ1M Q8T1", "read", kMiB, 8},     {"SEQ1M Q8T1", "write", kMiB, 8},      {"SEQ1M Q1T1", "read", kMiB, 1},
    {"SEQ1M Q1T1", "write", kMiB, 1},    {"RND4K Q32T1", "randread", 4096, 32}, {"RND4K Q32T1", "randwrite", 4096, 32},
    {"RND4K Q1T1", "randread", 4096, 1}, {"RND4K Q1T1", "randwrite", 4096, 1},
};

const std::vector<std::string> kQuickArgs = {"--size", "16m", "--repeat", "1", "--time", "1"};

std::vector<std::string> QuickArgs(const std::string& dir, bool json) {
  std::vector<std::string> args = {"quick", dir};
  args.insert(args.end(), kQuickArgs.begin(), kQuickArgs.end());
  if (json) args.push_back("--json");
  return args;
}

bool MentionsBuffered(const json& run) {
  if (!run.contains("notes") || !run["notes"].is_array()) return false;
  for (const json& note : run["notes"])
    if (note.is_string()) {
      std::string text = note;
      if (text.find("O_DIRECT") != std::string::npos && text.find("buffered") != std::string::npos) return true;
    }
  return false;
}

// Runs quick --json on `dir` and checks the eight runs; `direct_expected` is whether
// O_DIRECT works there. Returns the document.
json CheckQuickJson(const std::string& dir, bool direct_expected) {
  CliResult r = RunNasperf(QuickArgs(dir, true), 120);
  EXPECT_EQ(r.exit_code, 0) << "stderr: " << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_TRUE(OnlyWarningsOrProgress(r.err));
  json doc;
  if (!ParseJson(r.out, &doc)) {
    ADD_FAILURE() << ParseJson(r.out, &doc).message();
    return doc;
  }
  EXPECT_TRUE(HasDocumentShape(doc));
  if (!doc.contains("runs") || doc["runs"].size() != 8) {
    ADD_FAILURE() << "expected 8 runs: " << doc.dump(2);
    return doc;
  }
  for (size_t i = 0; i < 8; ++i) {
    const json& run = doc["runs"][i];
    const Expected& want = kExpected[i];
    SCOPED_TRACE(std::string(want.test) + " " + want.rw);
    EXPECT_TRUE(HasConsistentFigures(run));
    EXPECT_EQ(run.value("test", ""), want.test);
    EXPECT_EQ(run["partial"], false);
    EXPECT_EQ(run["target"], dir);
    const json& job = run["job"];
    EXPECT_EQ(job["rw"], want.rw);
    EXPECT_EQ(job["bs"], want.bs);
    EXPECT_EQ(job["qd"], want.qd);
    EXPECT_EQ(job["threads"], 1);
    EXPECT_EQ(job["size"], 16 * kMiB);
    const bool reads = std::string(want.rw).find("read") != std::string::npos;
    EXPECT_EQ(run.contains("read"), reads);
    EXPECT_EQ(run.contains("write"), !reads);
    // --time 1 caps a test; otherwise one pass of the 16 MiB file.
    EXPECT_GT(TotalBytes(run), 0u);
    EXPECT_LE(TotalBytes(run), 16 * kMiB);
    if (direct_expected) {
      EXPECT_EQ(job["direct"], true) << "O_DIRECT works on " << dir << " but quick did not use it";
    } else {
      EXPECT_EQ(job["direct"], false);
      EXPECT_TRUE(MentionsBuffered(run)) << "quick fell back to buffered I/O without a note: " << run.dump(2);
    }
  }
  EXPECT_TRUE(DirEntries(dir).empty()) << "left behind: " << ::testing::PrintToString(DirEntries(dir));
  return doc;
}

TEST(QuickE2eTest, JsonHasTheEightCrystalDiskMarkRuns) {
  TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  CheckQuickJson(dir.path(), !RefusesODirect(dir.path()));
}

TEST(QuickE2eTest, TableHasTheFourRowsAndTheUnits) {
  TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf(QuickArgs(dir.path(), false), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(OnlyWarningsOrProgress(r.err));
  std::vector<std::string> lines = Lines(r.out);
  for (const char* label : {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"}) {
    int rows = 0;
    for (const std::string& line : lines)
      if (line.rfind(label, 0) == 0) ++rows;
    EXPECT_EQ(rows, 1) << "one table row starting with " << label << ":\n" << r.out;
  }
  EXPECT_NE(r.out.find("MB/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("IOPS"), std::string::npos) << r.out;
  bool unit_line = false;
  for (const std::string& line : lines)
    if (line.find("MB/s") != std::string::npos && line.find("10^6") != std::string::npos) unit_line = true;
  EXPECT_TRUE(unit_line) << "no line states MB/s = 10^6 B/s:\n" << r.out;
  EXPECT_TRUE(r.out.find("us") != std::string::npos || r.out.find("microseconds") != std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PARTIAL"), std::string::npos) << r.out;
  // Issue 33 item 5: the write columns say how the writes ended (quick fsyncs where it
  // falls back to buffered I/O; O_DIRECT passes the page cache, not the device's cache).
  const std::string flush = RefusesODirect(dir.path())
                                ? "Write columns: flushed (fsync inside the clock)\n"
                                : "Write columns: not flushed (O_DIRECT passes this machine's page cache, not the "
                                  "device's cache)\n";
  EXPECT_NE(r.out.find(flush), std::string::npos) << r.out;
  EXPECT_TRUE(DirEntries(dir.path()).empty());
}

// tmpfs accepts O_DIRECT on recent kernels and refuses it on older ones: either is fine,
// as long as the JSON says which one happened.
TEST(QuickE2eTest, DevShmUsesDirectOrSaysItFellBack) {
  TempDir dir("/dev/shm");
  if (!dir.ok()) NASPERF_SKIP_OR_FAIL("cannot create a directory in /dev/shm");
  CheckQuickJson(dir.path(), !RefusesODirect(dir.path()));
}

// ramfs has no O_DIRECT at all: quick must fall back to buffered I/O and say so.
TEST(QuickE2eTest, FallsBackToBufferedWhereODirectIsRefused) {
  TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  ScopedMount ramfs("ramfs", dir.path(), "ramfs", 0, "");
  if (!ramfs.ok()) NASPERF_SKIP_OR_FAIL("needs to mount ramfs (root): " + ramfs.error());
  ASSERT_TRUE(RefusesODirect(dir.path())) << "ramfs accepted O_DIRECT on this kernel";
  CheckQuickJson(dir.path(), false);

  CliResult r = RunNasperf(QuickArgs(dir.path(), false), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("buffered"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("O_DIRECT"), std::string::npos) << "the table does not say O_DIRECT is unavailable:\n" << r.out;
  EXPECT_TRUE(DirEntries(dir.path()).empty());
}

TEST(QuickE2eTest, TagsAndNameAppearOnEveryRun) {
  TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  std::vector<std::string> args = QuickArgs(dir.path(), true);
  args.insert(args.end(), {"--tag", "nas=ds220", "--tag", "link=1gbe"});
  CliResult r = RunNasperf(args, 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  for (const json& run : doc["runs"]) EXPECT_EQ(run["tags"], json({{"nas", "ds220"}, {"link", "1gbe"}}));
  EXPECT_TRUE(DirEntries(dir.path()).empty());
}

}  // namespace
}  // namespace nasperf::e2e
