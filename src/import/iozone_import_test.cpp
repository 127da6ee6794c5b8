// iozone import tests on hand-written reports in iozone's layouts: the -a table (full and
// with tests left out), the -R Excel section, and truncated reports.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "import/import.h"
#include "testing/import_fixtures.h"

namespace nasperf {
namespace {

using testing::ReadWholeFile;
using testing::TempDir;
using testing::TestData;

const RunResult* Find(const std::vector<RunResult>& runs, const std::string& name) {
  for (const RunResult& run : runs)
    if (run.name == name) return &run;
  return nullptr;
}

// iozone's KB is 1024 bytes; nasperf's MB is 10^6.
double MBps(double kb_per_s) { return kb_per_s * 1024 / 1e6; }

TEST(IozoneImport, AutoTableGivesEveryCellOfEveryTest) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("iozone_a.txt"), ImportFormat::kIozone);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // 64 kB file × 5 record sizes + 128 kB file × 6 record sizes, 13 tests each.
  ASSERT_EQ(r.value().size(), 11u * 13u);

  const RunResult* write = Find(r.value(), "iozone write 64 KiB 4 KiB");
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(write->source_tool, "iozone");
  EXPECT_EQ(write->test, "write");
  EXPECT_EQ(write->job.rw, AccessPattern::kWrite);
  EXPECT_EQ(write->job.size, 65536u);
  EXPECT_EQ(write->job.bs, 4096u);
  EXPECT_EQ(write->command_line, "iozone -a -n 64k -g 128k -f /mnt/nas/iozone.tmp");
  ASSERT_TRUE(write->write.has_value());
  EXPECT_FALSE(write->read.has_value());
  EXPECT_EQ(write->write->mb_per_s, MBps(496362));  // 508.274688 MB/s
  EXPECT_DOUBLE_EQ(write->write->mb_per_s, 508.274688);
  EXPECT_EQ(write->write->bytes, 65536u);
  EXPECT_EQ(write->write->ios, 16u);

  const RunResult* rr = Find(r.value(), "iozone random_read 64 KiB 4 KiB");
  ASSERT_NE(rr, nullptr);
  EXPECT_EQ(rr->test, "random_read");
  EXPECT_EQ(rr->job.rw, AccessPattern::kRandRead);
  ASSERT_TRUE(rr->read.has_value());
  EXPECT_EQ(rr->read->mb_per_s, MBps(1828508));
  EXPECT_EQ(rr->read->iops, 1828508.0 * 1024 / 4096);

  const RunResult* freread = Find(r.value(), "iozone freread 64 KiB 4 KiB");
  ASSERT_NE(freread, nullptr);
  EXPECT_EQ(freread->read->mb_per_s, MBps(2203800));
  const RunResult* bkwd = Find(r.value(), "iozone backward_read 64 KiB 4 KiB");
  ASSERT_NE(bkwd, nullptr);
  EXPECT_EQ(bkwd->read->mb_per_s, MBps(1392258));
  EXPECT_NE(Find(r.value(), "iozone record_rewrite 128 KiB 128 KiB"), nullptr);
  EXPECT_EQ(Find(r.value(), "iozone write 64 KiB 128 KiB"), nullptr) << "no 128 kB records in a 64 kB file";
}

TEST(IozoneImport, BlankColumnsOfTestsNotRunArePlacedByPosition) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("iozone_a_i0_i2_direct.txt"), ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 8u);  // write, rewrite, random read, random write × 2 rows
  const RunResult* rr = Find(r.value(), "iozone random_read 16 MiB 4 KiB");
  ASSERT_NE(rr, nullptr);
  EXPECT_EQ(rr->read->mb_per_s, MBps(24719));
  EXPECT_TRUE(rr->job.direct) << "O_DIRECT feature enabled";
  const RunResult* rw = Find(r.value(), "iozone random_write 16 MiB 1 MiB");
  ASSERT_NE(rw, nullptr);
  EXPECT_EQ(rw->job.rw, AccessPattern::kRandWrite);
  EXPECT_EQ(rw->write->mb_per_s, MBps(301234));
  EXPECT_EQ(Find(r.value(), "iozone read 16 MiB 4 KiB"), nullptr);
}

TEST(IozoneImport, ExcelReportBlocksRecordSizesAcrossFileSizesDown) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("iozone_R_excel.txt"), ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // 6 reports × 90 cells; the 0 cells (records under 64 kB in the 32 MiB file) are skipped.
  ASSERT_EQ(r.value().size(), 6u * 90u);
  const RunResult* w = Find(r.value(), "iozone write 64 KiB 4 KiB");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->write->mb_per_s, MBps(496362));
  EXPECT_EQ(w->command_line, "iozone -R -a -i 0 -i 1 -i 2 -n 64k -g 32m -f /mnt/nas/iozone.tmp");
  const RunResult* rw = Find(r.value(), "iozone random_write 32 MiB 16 MiB");
  ASSERT_NE(rw, nullptr);
  EXPECT_EQ(rw->write->mb_per_s, MBps(101376));
  EXPECT_EQ(rw->job.bs, 16u << 20);
  EXPECT_EQ(Find(r.value(), "iozone write 32 MiB 4 KiB"), nullptr) << "a 0 cell is a skipped point";
  EXPECT_NE(Find(r.value(), "iozone write 32 MiB 64 KiB"), nullptr);
  EXPECT_NE(Find(r.value(), "iozone reread 16 MiB 16 MiB"), nullptr);
}

TEST(IozoneImport, TableAndExcelSectionTogetherAreReadOnce) {
  TempDir dir;
  std::string path = dir.path() + "/both.txt";
  std::string excel = ReadWholeFile(TestData("iozone_R_excel.txt"));
  std::ofstream(path) << ReadWholeFile(TestData("iozone_a.txt")) << excel.substr(excel.find("Excel output is below:"));
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().size(), 11u * 13u);
  bool noted = false;
  for (const std::string& n : r.value()[0].notes) noted |= n.find("Excel section repeats it") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(IozoneImport, TableWithoutItsEndIsTruncated) {
  TempDir dir;
  std::string path = dir.path() + "/cut.txt";
  std::string text = ReadWholeFile(TestData("iozone_a.txt"));
  std::ofstream(path) << text.substr(0, text.find("iozone test complete."));
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(r.status().message().find("without \"iozone test complete.\" (truncated file?)"), std::string::npos)
      << r.status().message();
}

TEST(IozoneImport, ExcelSectionCutInARowIsTruncated) {
  TempDir dir;
  std::string path = dir.path() + "/cut.txt";
  std::string text = ReadWholeFile(TestData("iozone_R_excel.txt"));
  std::ofstream(path) << text.substr(0, text.size() - 20);
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(r.status().message().find("truncated file?"), std::string::npos) << r.status().message();
}

TEST(IozoneImport, ExcelSectionCutAtALineEndIsTruncated) {
  TempDir dir;
  std::string path = dir.path() + "/cut.txt";
  std::string text = ReadWholeFile(TestData("iozone_R_excel.txt"));
  std::ofstream(path) << text.substr(0, text.find("\n\"2048\"") + 1);  // the Writer report up to 1024 kB
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'Writer' report stops at the 1024 kB file, short of 32768 kB (truncated file?)"),
            std::string::npos)
      << r.status().message();
}

TEST(IozoneImport, NotANumberNamesTheColumn) {
  TempDir dir;
  std::string path = dir.path() + "/odd.txt";
  std::string text = ReadWholeFile(TestData("iozone_a.txt"));
  size_t at = text.find("2923952");
  text.replace(at, 7, "2923x52");
  std::ofstream(path) << text;
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("column 'reread': '2923x52' is not a number"), std::string::npos)
      << r.status().message();
}

TEST(IozoneImport, ThroughputModeIsRefusedByName) {
  TempDir dir;
  std::string path = dir.path() + "/t.txt";
  std::ofstream(path) << "\tIozone: Performance Test of File I/O\n\tOutput is in kBytes/sec\n\n"
                      << "\tChildren see throughput for  2 initial writers \t=  123456.78 kB/sec\n";
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line 4: iozone throughput-mode (-t) results are not supported"),
            std::string::npos)
      << r.status().message();
}

// A row of the -a table with `file_kb` and `rec_kb` in place of the first row's.
std::string WithFirstRow(const std::string& file_kb, const std::string& rec_kb) {
  std::string text = ReadWholeFile(TestData("iozone_a.txt"));
  const std::string row = "              64       4  496362";
  size_t at = text.find(row);
  EXPECT_NE(at, std::string::npos);
  std::string replaced = std::string(16 - file_kb.size(), ' ') + file_kb + std::string(8 - rec_kb.size(), ' ') + rec_kb;
  text.replace(at, 24, replaced);
  return text;
}

// A zero-size file or a record larger than its file is not a measurement any iozone made.
TEST(IozoneImport, ImpossiblePointsAreRefused) {
  TempDir dir;
  std::string path = dir.path() + "/odd.txt";
  for (const auto& [file_kb, rec_kb] : std::vector<std::pair<std::string, std::string>>{{"0", "4"}, {"64", "128"}}) {
    SCOPED_TRACE(file_kb + " kB file, " + rec_kb + " kB records");
    std::ofstream(path, std::ios::trunc) << WithFirstRow(file_kb, rec_kb);
    Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find("--size"), std::string::npos) << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  }
}

// Text importers bound their lines: a 1 MiB line is no report's.
TEST(IozoneImport, OverlongLineIsRefusedByNumber) {
  TempDir dir;
  std::string path = dir.path() + "/long.txt";
  std::string text = ReadWholeFile(TestData("iozone_a.txt"));
  text.insert(text.find("\n") + 1, std::string(1 << 20, 'x') + "\n");
  std::ofstream(path) << text;
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line 2: "), std::string::npos) << r.status().message().substr(0, 200);
  EXPECT_LT(r.status().message().size(), 400u);
}

}  // namespace
}  // namespace nasperf
