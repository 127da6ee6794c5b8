// CrystalDiskMark import tests on hand-written text exports in the layouts of versions 8,
// 7 (saved as UTF-16LE), 6 and 5: each test's MB/s, IOPS and µs exactly as printed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "import/import.h"
#include "testing/import_fixtures.h"

namespace nasperf {
namespace {

using testing::HasNote;
using testing::ReadWholeFile;
using testing::TempDir;
using testing::TestData;

const RunResult& Get(const std::vector<RunResult>& runs, const std::string& name) {
  for (const RunResult& run : runs)
    if (run.name == name) return run;
  ADD_FAILURE() << "no run named " << name;
  static const RunResult none;
  return none;
}

struct Row {
  const char* name;
  double mb_per_s, iops, lat_us;
};

void ExpectRows(const std::vector<RunResult>& runs, const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    const RunResult& run = Get(runs, row.name);
    bool write = std::string(row.name).find(" write") != std::string::npos;
    const std::optional<DirectionResult>& d = write ? run.write : run.read;
    ASSERT_TRUE(d.has_value()) << row.name;
    EXPECT_FALSE((write ? run.read : run.write).has_value()) << row.name;
    EXPECT_EQ(d->mb_per_s, row.mb_per_s) << row.name;
    EXPECT_EQ(d->iops, row.iops) << row.name;
    EXPECT_EQ(d->lat.mean_us, row.lat_us) << row.name;
  }
}

TEST(CrystalDiskMarkImport, Version8ExportEveryTestAsPrinted) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("cdm8.txt"), ImportFormat::kCrystalDiskMark);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 8u);  // [Mix] is not imported
  ExpectRows(r.value(), {{"SEQ1M Q8T1 read", 112.614, 107.4, 74067.87},
                         {"SEQ1M Q1T1 read", 110.897, 105.8, 9440.55},
                         {"RND4K Q32T16 read", 24.356, 5946.3, 84590.12},
                         {"RND4K Q1T1 read", 9.874, 2410.6, 414.37},
                         {"SEQ1M Q8T1 write", 104.338, 99.5, 79862.45},
                         {"SEQ1M Q1T1 write", 101.715, 97.0, 10291.06},
                         {"RND4K Q32T16 write", 11.203, 2735.1, 179562.30},
                         {"RND4K Q1T1 write", 5.521, 1347.9, 740.92}});
  const RunResult& rnd = Get(r.value(), "RND4K Q32T16 read");
  EXPECT_EQ(rnd.source_tool, "crystaldiskmark");
  EXPECT_EQ(rnd.test, "RND4K Q32T16");
  EXPECT_EQ(rnd.target, "Z:");
  EXPECT_EQ(rnd.job.rw, AccessPattern::kRandRead);
  EXPECT_EQ(rnd.job.bs, 4096u);
  EXPECT_EQ(rnd.job.qd, 32u);
  EXPECT_EQ(rnd.job.threads, 16u);
  EXPECT_EQ(rnd.job.size, 1u << 30);
  EXPECT_EQ(rnd.job.time_s, 5.0);
  const RunResult& seq = Get(r.value(), "SEQ1M Q8T1 write");
  EXPECT_EQ(seq.job.rw, AccessPattern::kWrite);
  EXPECT_EQ(seq.job.bs, 1u << 20);
  EXPECT_EQ(seq.job.qd, 8u);
  EXPECT_TRUE(HasNote(seq, "best of 5 runs"));
  EXPECT_TRUE(HasNote(seq, "[Mix] section"));
  EXPECT_TRUE(HasNote(seq, "comment: NAS share over 1GbE, SMB3"));
  EXPECT_TRUE(HasNote(seq, "CrystalDiskMark 8.0.4"));
  EXPECT_TRUE(seq.started_at.empty()) << "CrystalDiskMark's date has no time zone";
}

TEST(CrystalDiskMarkImport, Version7ExportSavedAsUtf16) {
  // CrystalDiskMark 7 writes its text export in UTF-16LE with a byte order mark, CRLF.
  std::string utf8 = ReadWholeFile(TestData("cdm7.txt")), utf16 = "\xFF\xFE";
  for (char c : utf8) {
    if (c == '\n') utf16 += std::string("\r\0", 2);
    utf16 += c;
    utf16 += '\0';
  }
  TempDir dir;
  std::string path = dir.path() + "/CrystalDiskMark_20200214190327.txt";
  std::ofstream(path, std::ios::binary) << utf16;
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 8u);
  ExpectRows(r.value(), {{"SEQ1M Q8T1 read", 117.302, 111.9, 71404.18},
                         {"RND4K Q32T16 read", 1.207, 294.7, 533212.96},
                         {"RND4K Q1T1 read", 0.517, 126.2, 7919.85},
                         {"SEQ1M Q1T1 write", 95.260, 90.8, 11004.27},
                         {"RND4K Q32T16 write", 0.934, 228.0, 614981.57}});
  EXPECT_TRUE(HasNote(r.value()[0], "UTF-16LE"));
  EXPECT_EQ(r.value()[0].target, "") << "this CrystalDiskMark 7 export names no drive";
}

TEST(CrystalDiskMarkImport, Version6ExportWithDerivedSequentialIops) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("cdm6.txt"), ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 8u);
  const RunResult& seq = Get(r.value(), "SEQ128K Q32T1 read");  // CDM 6 ran DiskSpd -b128K
  EXPECT_EQ(seq.read->mb_per_s, 113.219);
  EXPECT_EQ(seq.read->iops, 113.219 * 1e6 / 131072);
  EXPECT_TRUE(HasNote(seq, "IOPS derived"));
  EXPECT_EQ(seq.read->lat.mean_us, 0.0);
  EXPECT_EQ(seq.target, "Z:");
  EXPECT_EQ(seq.job.size, 1024u << 20);
  ExpectRows(r.value(), {{"RND4K Q8T8 read", 38.407, 9376.7, 0},
                         {"RND4K Q8T8 write", 21.559, 5263.4, 0},
                         {"RND4K Q32T1 write", 18.312, 4470.7, 0},
                         {"RND4K Q1T1 read", 9.105, 2222.9, 0}});
  EXPECT_EQ(Get(r.value(), "RND4K Q8T8 write").job.threads, 8u);
}

TEST(CrystalDiskMarkImport, Version5ExportHasOneMiBSequentialAtQ1) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("cdm5.txt"), ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 8u);
  const RunResult& seq1 = Get(r.value(), "SEQ1M Q1T1 write");  // "Sequential Write (T= 1)"
  EXPECT_EQ(seq1.job.bs, 1u << 20);
  EXPECT_EQ(seq1.job.qd, 1u);
  EXPECT_EQ(seq1.write->mb_per_s, 107.335);
  EXPECT_EQ(Get(r.value(), "SEQ128K Q32T1 read").read->mb_per_s, 118.934);
  ExpectRows(r.value(), {{"RND4K Q1T1 write", 11.463, 2798.6, 0}, {"RND4K Q32T1 read", 21.065, 5142.8, 0}});
  EXPECT_EQ(seq1.target, "Y:");
}

TEST(CrystalDiskMarkImport, ExportCutBeforeItsFooterIsTruncated) {
  TempDir dir;
  std::string path = dir.path() + "/cut.txt";
  std::string text = ReadWholeFile(TestData("cdm8.txt"));
  std::ofstream(path) << text.substr(0, text.find("[Mix]"));
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(r.status().message().find("before its \"Test:\" line (truncated file?)"), std::string::npos)
      << r.status().message();
}

TEST(CrystalDiskMarkImport, ResultLineCutInTheMiddleNamesTheLine) {
  TempDir dir;
  std::string path = dir.path() + "/cut.txt";
  std::string text = ReadWholeFile(TestData("cdm8.txt"));
  std::ofstream(path) << text.substr(0, text.find("RND    4KiB (Q= 32, T=16):    24.3") + 34) << "\n";
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kCrystalDiskMark);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line 11: unreadable result line"), std::string::npos) << r.status().message();
}

// The version 8 export with its "Comment: ..." line replaced by `line`.
std::string WithComment(const std::string& line) {
  std::string text = ReadWholeFile(TestData("cdm8.txt"));
  size_t at = text.find("Comment: ");
  EXPECT_NE(at, std::string::npos);
  text.replace(at, text.find('\n', at) - at, line);
  return text;
}

// A fuzzer found 41 KB exports with a long footer line that crashed the import: the
// footer's std::regex recursed once per character. Lines are bounded, and scanned by hand.
TEST(CrystalDiskMarkImport, LongFooterLineIsRefusedWithoutCrashing) {
  TempDir dir;
  std::string path = dir.path() + "/long.txt";
  for (const std::string& key : {"Comment: ", "Test: ", "Time: Measure ", "Profile: "}) {
    SCOPED_TRACE(key);
    std::ofstream(path, std::ios::trunc) << WithComment(key + std::string(41 << 10, '1'));
    Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find("bytes, longer than the 16 KiB"), std::string::npos)
        << r.status().message().substr(0, 300);
    EXPECT_LT(r.status().message().size(), 400u);
  }
}

// Under the bound, a long footer line is read like a short one.
TEST(CrystalDiskMarkImport, LongCommentUnderTheBoundIsKept) {
  TempDir dir;
  std::string path = dir.path() + "/comment.txt";
  const std::string comment(15 << 10, 'c');
  std::ofstream(path) << WithComment("Comment: " + comment);
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(HasNote(r.value().front(), "comment: " + comment));
}

// Japanese CrystalDiskMark writes its Profile line in Shift-JIS (CP932): decoded, not refused.
TEST(CrystalDiskMarkImport, ShiftJisProfileIsDecoded) {
  TempDir dir;
  std::string path = dir.path() + "/sjis.txt";
  std::string text = ReadWholeFile(TestData("cdm8.txt"));
  size_t at = text.find("Profile: Default");
  ASSERT_NE(at, std::string::npos);
  // "プロファイル" in CP932, then in UTF-8.
  text.replace(at, 16, "Profile: \x83\x76\x83\x8D\x83\x74\x83\x40\x83\x43\x83\x8B");
  std::ofstream(path) << text;
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const RunResult& run = r.value().front();
  EXPECT_TRUE(HasNote(run, "profile: \xE3\x83\x97\xE3\x83\xAD\xE3\x83\x95\xE3\x82\xA1\xE3\x82\xA4\xE3\x83\xAB"));
  EXPECT_TRUE(HasNote(run, "Shift-JIS"));
  EXPECT_NEAR(Get(r.value(), "SEQ1M Q8T1 read").read->mb_per_s, 112.614, 1e-9);
}

// Bytes that are neither UTF-8 nor Shift-JIS: one line naming the line and the byte.
TEST(CrystalDiskMarkImport, BytesThatAreNoEncodingAreRefusedByLine) {
  TempDir dir;
  std::string path = dir.path() + "/bad.txt";
  std::string text = ReadWholeFile(TestData("cdm8.txt"));
  text.replace(text.find("Profile: Default"), 16, "Profile: \xFF\xFF");
  std::ofstream(path) << text;
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(r.status().message().find("not UTF-8 text (byte 0xFF), nor Shift-JIS"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("line 26"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace nasperf
