// fio import tests: real fio runs (Debian's fio) imported and compared, figure by figure
// and with exact equality, against the same JSON read independently here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "import/fio_options.h"
#include "import/import.h"
#include "testing/import_fixtures.h"

namespace nasperf {
namespace {

using json = nlohmann::json;
using testing::HasNote;
using testing::TempDir;
using testing::TestData;

bool HaveFio() { return std::system("fio --version >/dev/null 2>&1") == 0; }

// Runs fio with `args`; paths in this test are /tmp/nasperf-test-XXXXXX/..., safe unquoted.
void RunFio(const std::string& args) {
  std::string cmd = "fio " + args + " 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// The reference reading: the file's JSON document, found and parsed independently.
json ReadJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  size_t brace = text.find("\n{");
  return json::parse(text[0] == '{' ? text : text.substr(brace + 1));
}

// Every figure of one direction equals fio's own, exactly (the same doubles).
void ExpectDirection(const std::optional<DirectionResult>& got, const json& dir, const std::string& what) {
  SCOPED_TRACE(what);
  if (dir["io_bytes"].get<uint64_t>() == 0) {
    EXPECT_FALSE(got.has_value());
    return;
  }
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->bytes, dir["io_bytes"].get<uint64_t>());
  EXPECT_EQ(got->ios, dir["total_ios"].get<uint64_t>());
  EXPECT_EQ(got->seconds, dir["runtime"].get<double>() / 1000.0);
  EXPECT_EQ(got->mb_per_s, dir["bw_bytes"].get<double>() / 1e6);
  EXPECT_EQ(got->iops, dir["iops"].get<double>());
  const json& clat = dir["clat_ns"];
  EXPECT_EQ(got->lat.mean_us, clat["mean"].get<double>() / 1000.0);
  EXPECT_EQ(got->lat.max_us, clat["max"].get<double>() / 1000.0);
  EXPECT_EQ(got->lat.p50_us, clat["percentile"]["50.000000"].get<double>() / 1000.0);
  EXPECT_EQ(got->lat.p90_us, clat["percentile"]["90.000000"].get<double>() / 1000.0);
  EXPECT_EQ(got->lat.p99_us, clat["percentile"]["99.000000"].get<double>() / 1000.0);
  EXPECT_EQ(got->lat.p999_us, clat["percentile"]["99.900000"].get<double>() / 1000.0);
}

class FioImport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveFio()) NASPERF_SKIP_OR_FAIL_IN_CI("fio is not installed (apt-get install fio)");
  }
  TempDir dir_;
};

TEST_F(FioImport, RandReadJobMatchesFioOutputExactly) {
  std::string out = dir_.path() + "/randread.json";
  RunFio("--name=t --filename=" + dir_.path() + "/f --size=8m --rw=randread --bs=4k --iodepth=4 --ioengine=psync " +
         "--output-format=json --output=" + out);
  Result<std::vector<RunResult>> r = ImportFile(out, ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 1u);
  const RunResult& run = r.value()[0];
  json ref = ReadJson(out);
  EXPECT_EQ(run.source_tool, "fio");
  EXPECT_EQ(run.source_file, out);
  EXPECT_EQ(run.name, "t");
  EXPECT_EQ(run.target, dir_.path() + "/f");
  EXPECT_EQ(run.job.rw, AccessPattern::kRandRead);
  EXPECT_EQ(run.job.bs, 4096u);
  EXPECT_EQ(run.job.qd, 4u);
  EXPECT_EQ(run.job.threads, 1u);
  EXPECT_EQ(run.job.size, 8u << 20);
  EXPECT_FALSE(run.job.direct);
  EXPECT_EQ(run.job.engine, "psync");
  EXPECT_EQ(run.engine, "psync");
  EXPECT_TRUE(std::regex_match(run.started_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << run.started_at;
  EXPECT_TRUE(HasNote(run, "synchronous")) << "psync with iodepth=4 runs at depth 1; the note must say so";
  EXPECT_EQ(run.cpu.user_pct, ref["jobs"][0]["usr_cpu"].get<double>());
  ExpectDirection(run.read, ref["jobs"][0]["read"], "read");
  ExpectDirection(run.write, ref["jobs"][0]["write"], "write");
}

TEST_F(FioImport, TwoJobsOneRunEachWithBothDirections) {
  std::string out = dir_.path() + "/two.json";
  RunFio("--output-format=json --output=" + out + " --directory=" + dir_.path() +
         " --size=4m --bs=4k --ioengine=psync --name=mixed --rw=randrw --rwmixread=70 --name=writer --rw=write");
  Result<std::vector<RunResult>> r = ImportFile(out, ImportFormat::kFio);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 2u);
  json ref = ReadJson(out);
  const RunResult& mixed = r.value()[0];
  EXPECT_EQ(mixed.name, "mixed");
  EXPECT_EQ(mixed.target, dir_.path());
  EXPECT_EQ(mixed.job.rw, AccessPattern::kRandReadWrite);
  EXPECT_EQ(mixed.job.read_mix_pct, 70);
  EXPECT_EQ(mixed.job.size, 4u << 20);
  ASSERT_TRUE(mixed.read.has_value());
  ASSERT_TRUE(mixed.write.has_value());
  ExpectDirection(mixed.read, ref["jobs"][0]["read"], "mixed read");
  ExpectDirection(mixed.write, ref["jobs"][0]["write"], "mixed write");
  const RunResult& writer = r.value()[1];
  EXPECT_EQ(writer.name, "writer");
  EXPECT_EQ(writer.job.rw, AccessPattern::kWrite);
  EXPECT_FALSE(writer.read.has_value());
  ExpectDirection(writer.write, ref["jobs"][1]["write"], "writer write");
}

TEST_F(FioImport, NumjobsWithAndWithoutGroupReporting) {
  std::string grouped = dir_.path() + "/grouped.json", clones = dir_.path() + "/clones.json";
  std::string job = " --name=g --filename=" + dir_.path() + "/g --size=4m --rw=read --numjobs=2 --output-format=json";
  RunFio("--group_reporting" + job + " --output=" + grouped);
  RunFio(job.substr(1) + " --output=" + clones);

  Result<std::vector<RunResult>> g = ImportFile(grouped, ImportFormat::kFio);
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_EQ(g.value().size(), 1u);
  EXPECT_EQ(g.value()[0].job.threads, 2u);
  ExpectDirection(g.value()[0].read, ReadJson(grouped)["jobs"][0]["read"], "grouped");

  Result<std::vector<RunResult>> c = ImportFile(clones, ImportFormat::kFio);
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c.value().size(), 2u);
  json ref = ReadJson(clones);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(c.value()[i].job.threads, 1u);
    EXPECT_EQ(c.value()[i].name, "g #" + std::to_string(i + 1));
    ExpectDirection(c.value()[i].read, ref["jobs"][i]["read"], "clone");
  }
}

TEST_F(FioImport, NoteLinesBeforeTheJsonAreSkippedAndSaid) {
  // Without --output, fio prints its "note: both iodepth >= 1 and synchronous I/O engine
  // are selected ..." on stdout ahead of the JSON.
  std::string out = dir_.path() + "/stdout.json";
  RunFio("--name=t --filename=" + dir_.path() + "/f --size=4m --rw=read --iodepth=8 --ioengine=psync " +
         "--output-format=json > " + out);
  std::ifstream in(out);
  std::string first;
  std::getline(in, first);
  ASSERT_NE(first.rfind("note:", 0), std::string::npos) << "fio no longer prints its note first: " << first;
  Result<std::vector<RunResult>> r = ImportFile(out, ImportFormat::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 1u);
  EXPECT_TRUE(HasNote(r.value()[0], "skipped 1 line(s) before the JSON"));
  ExpectDirection(r.value()[0].read, ReadJson(out)["jobs"][0]["read"], "read");
}

// fio's unit rules, checked against fio 3.33: with the default kb_base=1024 "4KiB" is 4000
// bytes (fio's compatibility mode), with kb_base=1000 "4k" is 4000 and "4KiB" 4096.
TEST(ParseFioSize, FollowsFiosKbBase) {
  using import_detail::ParseFioSize;
  EXPECT_EQ(ParseFioSize("4k", 1024), 4096u);
  EXPECT_EQ(ParseFioSize("4KB", 1024), 4096u);
  EXPECT_EQ(ParseFioSize("4KiB", 1024), 4000u);
  EXPECT_EQ(ParseFioSize("8m", 1024), 8u << 20);
  EXPECT_EQ(ParseFioSize("1G", 1024), 1u << 30);
  EXPECT_EQ(ParseFioSize("1.5k", 1024), 1536u);
  EXPECT_EQ(ParseFioSize("512", 1024), 512u);
  EXPECT_EQ(ParseFioSize("4k", 1000), 4000u);
  EXPECT_EQ(ParseFioSize("4KiB", 1000), 4096u);
  EXPECT_FALSE(ParseFioSize("50%", 1024).has_value());
  EXPECT_FALSE(ParseFioSize("4k-16k", 1024).has_value());
  EXPECT_FALSE(ParseFioSize("", 1024).has_value());
}

// A real fio 3.33 output kept in testdata, so the mapping is checked without fio too.
TEST(FioImportFile, CheckedInOutputGivesFiosFigures) {
  Result<std::vector<RunResult>> r = ImportFile(TestData("fio_randread.json"), ImportFormat::kFio);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().size(), 1u);
  const RunResult& run = r.value()[0];
  ASSERT_TRUE(run.read.has_value());
  EXPECT_FALSE(run.write.has_value());
  EXPECT_EQ(run.read->bytes, 8388608u);
  EXPECT_EQ(run.read->ios, 2048u);
  EXPECT_EQ(run.read->seconds, 0.288);
  EXPECT_EQ(run.read->mb_per_s, 29127111 / 1e6);  // bw_bytes, not bw (KiB/s)
  EXPECT_EQ(run.read->iops, 7111.111111);
  EXPECT_EQ(run.read->lat.mean_us, 140010.909668 / 1000.0);
  EXPECT_EQ(run.read->lat.p50_us, 130.56);
  EXPECT_EQ(run.read->lat.p90_us, 154.624);
  EXPECT_EQ(run.read->lat.p99_us, 240.64);
  EXPECT_EQ(run.read->lat.p999_us, 7438.336);
  EXPECT_EQ(run.read->lat.max_us, 13371.531);
  // The report was stamped at 1796032928 (2026-11-30T10:02:08Z), 1 s after the job began.
  EXPECT_EQ(run.started_at, "2026-11-30T10:02:07Z");
  EXPECT_TRUE(HasNote(run, "fio-3.33"));
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 100,000 levels parse, then overflow the stack when the options are copied or dumped.
TEST(FioImportBadInput, DeeplyNestedJsonIsRefusedBeforeParsing) {
  TempDir dir;
  const std::string path = dir.path() + "/deep.json";
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::ofstream(path) << "{\"fio version\": \"fio-3.33\",\n\"jobs\": [{\"job options\": " << deep << "}]}\n";
  for (ImportFormat format : {ImportFormat::kFio, ImportFormat::kAuto}) {
    Result<std::vector<RunResult>> r = ImportFile(path, format);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find("line 2: JSON nested more than 64 levels deep"), std::string::npos)
        << r.status().message();
  }
}

// 1.8e308 B/s (or anything past 10 TB/s) is a broken file, not a measurement.
TEST(FioImportBadInput, ImpossibleThroughputIsRefused) {
  TempDir dir;
  const std::string path = dir.path() + "/fast.json";
  std::string text = ReadText(TestData("fio_randread.json"));
  size_t at = text.find("\"bw_bytes\" : 29127111");
  ASSERT_NE(at, std::string::npos);
  for (const auto& [figure, named] : std::vector<std::pair<std::string, std::string>>{
           {"1.7e308", "read.mb_per_s: 1.7e+302 is not a measured figure"}, {"1e400", "out of range"}}) {
    std::string odd = text;
    odd.replace(at, 21, "\"bw_bytes\" : " + figure);
    std::ofstream(path, std::ios::trunc) << odd;
    Result<std::vector<RunResult>> r = ImportFile(path, ImportFormat::kFio);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find(named), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace nasperf
