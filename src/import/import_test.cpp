// Tests of the import entry point: format names, auto-detection, and the bad-input rule
// (one line naming the file and the line or field, BadInput, no runs) for every kind of
// file `import` must refuse.
#include "import/import.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "testing/import_fixtures.h"

namespace nasperf {
namespace {

using testing::ReadWholeFile;
using testing::TempDir;
using testing::TestData;

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// The bad-input rule: BadInput, one line, naming the file and `where` (a line or a field).
void ExpectBadInput(const Result<std::vector<RunResult>>& r, const std::string& path, const std::string& where) {
  ASSERT_FALSE(r.ok()) << "imported " << (r.ok() ? r.value().size() : 0) << " runs from " << path;
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  const std::string& msg = r.status().message();
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << "message must start with the file: " << msg;
  EXPECT_NE(msg.find(where), std::string::npos) << "message must name " << where << ": " << msg;
  EXPECT_NE(msg.find("expected"), std::string::npos) << "message must say what was expected: " << msg;
}

TEST(ParseImportFormat, AcceptsTheNamesInAnyCase) {
  EXPECT_EQ(ParseImportFormat("auto").value(), ImportFormat::kAuto);
  EXPECT_EQ(ParseImportFormat("fio").value(), ImportFormat::kFio);
  EXPECT_EQ(ParseImportFormat("IOzone").value(), ImportFormat::kIozone);
  EXPECT_EQ(ParseImportFormat("cdm").value(), ImportFormat::kCrystalDiskMark);
  EXPECT_EQ(ParseImportFormat("CrystalDiskMark").value(), ImportFormat::kCrystalDiskMark);
}

TEST(ParseImportFormat, RejectsOthersNamingTheChoices) {
  Result<ImportFormat> r = ParseImportFormat("diskspd");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(r.status().message().find("'diskspd'"), std::string::npos);
  EXPECT_NE(r.status().message().find("auto, fio, iozone, cdm"), std::string::npos);
}

TEST(ImportFile, AutoDetectsEachTool) {
  const std::pair<const char*, const char*> files[] = {{"fio_randread.json", "fio"},
                                                       {"iozone_a.txt", "iozone"},
                                                       {"iozone_R_excel.txt", "iozone"},
                                                       {"cdm8.txt", "crystaldiskmark"},
                                                       {"cdm6.txt", "crystaldiskmark"}};
  for (const auto& [file, tool] : files) {
    Result<std::vector<RunResult>> r = ImportFile(TestData(file), ImportFormat::kAuto);
    ASSERT_TRUE(r.ok()) << file << ": " << r.status().message();
    ASSERT_FALSE(r.value().empty());
    EXPECT_EQ(r.value()[0].source_tool, tool) << file;
    EXPECT_EQ(r.value()[0].source_file, TestData(file));
  }
}

TEST(ImportBadInput, EmptyFile) {
  TempDir dir;
  std::string path = dir.path() + "/empty.json";
  WriteFile(path, "");
  for (ImportFormat f :
       {ImportFormat::kAuto, ImportFormat::kFio, ImportFormat::kIozone, ImportFormat::kCrystalDiskMark})
    ExpectBadInput(ImportFile(path, f), path, "line 1: the file is empty");
}

TEST(ImportBadInput, TruncatedFioJson) {
  TempDir dir;
  std::string path = dir.path() + "/cut.json";
  std::string json = ReadWholeFile(TestData("fio_randread.json"));
  WriteFile(path, json.substr(0, json.size() / 2));  // cut in the middle, as a full disk would
  ExpectBadInput(ImportFile(path, ImportFormat::kFio), path, "truncated");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ExpectBadInput(r, path, "line ");
}

TEST(ImportBadInput, FioJsonSyntaxErrorIsNotCalledTruncated) {
  TempDir dir;
  std::string path = dir.path() + "/comma.json";
  WriteFile(path, "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ ],\n}\n");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ExpectBadInput(r, path, "line 4: invalid JSON near '}'");
}

// Files cut anywhere (a full disk, an interrupted copy) are refused in one line, or — when
// the cut leaves a complete report — read; never a crash, never a half-read fio document.
TEST(ImportBadInput, EveryPrefixOfEveryFixtureIsReadOrRefusedInOneLine) {
  TempDir dir;
  std::string path = dir.path() + "/prefix";
  for (const char* file : {"fio_randread.json", "iozone_a.txt", "iozone_R_excel.txt", "cdm8.txt", "cdm6.txt"}) {
    std::string text = ReadWholeFile(TestData(file));
    for (size_t cut = 1; cut < text.size(); cut += 13) {
      WriteFile(path, text.substr(0, cut));
      Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
      if (r.ok()) {
        EXPECT_NE(std::string(file), "fio_randread.json") << "a cut fio document was read, cut at " << cut;
        continue;
      }
      EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << file << " cut at " << cut;
      EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
      EXPECT_EQ(r.status().message().rfind(path + ": ", 0), 0u) << r.status().message();
    }
  }
}

TEST(ImportBadInput, FioJsonMissingJobs) {
  std::string path = TestData("fio_no_jobs.json");
  ExpectBadInput(ImportFile(path, ImportFormat::kFio), path, "field jobs: missing");
  ExpectBadInput(ImportFile(path, ImportFormat::kAuto), path, "field jobs: missing");
}

TEST(ImportBadInput, FioJsonWithAFieldOfTheWrongType) {
  TempDir dir;
  std::string path = dir.path() + "/odd.json";
  std::string json = ReadWholeFile(TestData("fio_randread.json"));
  size_t at = json.find("\"bw_bytes\" : 29127111");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 21, "\"bw_bytes\" : \"fast\"");
  WriteFile(path, json);
  ExpectBadInput(ImportFile(path, ImportFormat::kFio), path, "field jobs[0].read.bw_bytes");
}

TEST(ImportBadInput, BinaryRandomBytes) {
  TempDir dir;
  std::string path = dir.path() + "/random.bin";
  std::mt19937 gen(42);
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>(gen() & 0xFF);
  WriteFile(path, bytes);
  for (ImportFormat f :
       {ImportFormat::kAuto, ImportFormat::kFio, ImportFormat::kIozone, ImportFormat::kCrystalDiskMark})
    ExpectBadInput(ImportFile(path, f), path, "binary data");
}

TEST(ImportBadInput, NulBytesInsideText) {
  TempDir dir;
  std::string path = dir.path() + "/nul.txt";
  WriteFile(path, std::string("CrystalDiskMark 8.0.4 x64\n[Read]\n  SEQ") + std::string(8, '\0') + "\n");
  ExpectBadInput(ImportFile(path, ImportFormat::kAuto), path, "line 3: binary data (byte 0x00");
}

TEST(ImportBadInput, CrystalDiskMarkFileGivenAsFio) {
  std::string path = TestData("cdm8.txt");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kFio);
  ExpectBadInput(r, path, "line 1: no JSON object");
  EXPECT_NE(r.status().message().find("looks like a CrystalDiskMark text export"), std::string::npos);
}

TEST(ImportBadInput, FioJsonGivenAsIozoneOrCrystalDiskMark) {
  std::string path = TestData("fio_randread.json");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
  ExpectBadInput(r, path, "line 1");
  EXPECT_NE(r.status().message().find("looks like fio JSON"), std::string::npos);
  r = ImportFile(path, ImportFormat::kCrystalDiskMark);
  ExpectBadInput(r, path, "line 1");
  EXPECT_NE(r.status().message().find("looks like fio JSON"), std::string::npos);
}

TEST(ImportBadInput, IozoneRowWithTooManyColumns) {
  std::string path = TestData("iozone_bad_row.txt");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kIozone);
  ExpectBadInput(r, path, "line 23: 16 columns, but the header at line 21 has 15");
  ExpectBadInput(ImportFile(path, ImportFormat::kAuto), path, "line 23");
}

TEST(ImportBadInput, NonexistentPath) {
  TempDir dir;
  std::string path = dir.path() + "/no-such-file.json";
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ExpectBadInput(r, path, "cannot open: No such file or directory");
}

TEST(ImportBadInput, DirectoryInsteadOfFile) {
  TempDir dir;
  ExpectBadInput(ImportFile(dir.path(), ImportFormat::kAuto), dir.path(), "not a regular file");
}

TEST(ImportBadInput, AutoDetectFailure) {
  TempDir dir;
  std::string path = dir.path() + "/notes.txt";
  WriteFile(path, "\nShopping list\n- milk\n- a faster NAS\n");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ExpectBadInput(r, path, "line 2: does not look like fio JSON, an iozone report or a CrystalDiskMark text export");
  EXPECT_NE(r.status().message().find("'Shopping list'"), std::string::npos);
}

TEST(ImportBadInput, ControlCharactersInThePathStayOnOneLine) {
  TempDir dir;
  std::string path = dir.path() + "/two\nlines.json";
  WriteFile(path, "");
  Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kAuto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  EXPECT_NE(r.status().message().find("two?lines.json"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
