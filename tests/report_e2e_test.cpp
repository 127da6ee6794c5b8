// E2E tests of `nasperf report`: the seed-000 workflow (two quick runs and a sweep ->
// one HTML file), item selection, and bad input (one line, exit 2, no file left).
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

// The report data embedded in an HTML report.
json EmbeddedData(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"nasperf-data\">";
  size_t begin = html.find(open);
  if (begin == std::string::npos) return json();
  begin += open.size();
  size_t end = html.find("</script>", begin);
  return json::parse(html.substr(begin, end - begin), nullptr, false);  // '<' is escaped as \u003c inside
}

class ReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    ASSERT_EQ(::mkdir(Path("data").c_str(), 0700), 0);
    for (const char* tag : {"mtu=1500", "mtu=9000"}) {
      CliResult quick = RunNasperf({"quick", Path("data"), "--size", "8m", "--repeat", "1", "--tag", tag, "--db", Db()}, 120);
      ASSERT_EQ(quick.exit_code, 0) << quick.err;
    }
    CliResult sweep = RunNasperf({"sweep", Path("data"), "--max", "2m", "--name", "Atom + Openfiler", "--db", Db()}, 120);
    ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
    CliResult run = RunNasperf({"run", Path("data"), "--size", "4m", "--tag", "box=old", "--db", Db()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Path(const std::string& name) { return dir_->Sub(name); }
  static std::string Db() { return Path("results.db"); }
  static TempDir* dir_;
};
TempDir* ReportTest::dir_ = nullptr;

TEST_F(ReportTest, LastThreeItemsAreTwoQuickSetsAndASweep) {
  std::string out = Path("r.html");
  CliResult r = RunNasperf({"report", "--last", "4", "-o", out, "--line", "PCI GbE actual=67", "--db", Db()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "4 item(s)")) << r.out;
  std::string html = ReadFileBytes(out);
  ASSERT_FALSE(html.empty());
  // Self-contained: nothing is loaded from elsewhere (the browser test also blocks every request).
  for (const char* outside : {"<script src", "<link ", "url(http", "@import"})
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  json data = EmbeddedData(html);
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["items"].size(), 4u);
  EXPECT_EQ(data["items"][0]["kind"], "quick");
  EXPECT_EQ(data["items"][0]["label"], "mtu=1500");
  EXPECT_EQ(data["items"][0]["run_ids"].size(), 8u);
  EXPECT_EQ(data["items"][1]["label"], "mtu=9000");
  EXPECT_EQ(data["items"][2]["kind"], "sweep");
  EXPECT_EQ(data["items"][2]["label"], "Atom + Openfiler");
  EXPECT_EQ(data["items"][2]["points"].size(), 6u * 6) << "64 KiB..2 MiB, six tests";
  EXPECT_TRUE(data["items"][2]["sweep"].contains("curves"));
  EXPECT_EQ(data["items"][3]["kind"], "run");
  EXPECT_EQ(data["runs"].size(), 8u + 8u + 1u);
  ASSERT_EQ(data["lines"].size(), 3u);
  EXPECT_EQ(data["lines"][2]["label"], "PCI GbE actual");
  EXPECT_EQ(data["lines"][2]["mb_per_s"], 67.0);

  // --last counts items: the newest three are the second quick set, the sweep and the run.
  ASSERT_EQ(RunNasperf({"report", "--last", "3", "-o", out, "--db", Db()}).exit_code, 0);
  EXPECT_EQ(EmbeddedData(ReadFileBytes(out))["items"][0]["label"], "mtu=9000");
}

TEST_F(ReportTest, SelectsByIdsAndTags) {
  std::string out = Path("ids.html");
  // Run 1 belongs to the first quick set, which it brings whole; s3 is the sweep.
  ASSERT_EQ(RunNasperf({"report", "1", "s3", "-o", out, "--db", Db()}).exit_code, 0);
  json data = EmbeddedData(ReadFileBytes(out));
  ASSERT_EQ(data["items"].size(), 2u);
  EXPECT_EQ(data["items"][0]["key"], "q1");
  EXPECT_EQ(data["items"][1]["key"], "s3");
  ASSERT_EQ(RunNasperf({"report", "--tag", "box=old", "-o", out, "--db", Db()}).exit_code, 0);
  data = EmbeddedData(ReadFileBytes(out));
  ASSERT_EQ(data["items"].size(), 1u);
  EXPECT_EQ(data["items"][0]["kind"], "run");
}

struct BadReport {
  const char* name;
  std::vector<std::string> args;
  const char* words;
};
void PrintTo(const BadReport& b, std::ostream* os) { *os << b.name; }

class BadReportTest : public ReportTest, public ::testing::WithParamInterface<BadReport> {};

TEST_P(BadReportTest, OneClearLineExit2NoFile) {
  std::string out = Path(std::string("bad-") + GetParam().name + ".html");
  std::vector<std::string> args = {"report", "--db", Db()};
  for (const std::string& a : GetParam().args) args.push_back(a == "OUT" ? out : a);
  CliResult r = RunNasperf(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, GetParam().words)) << r.err;
  EXPECT_NE(::access(out.c_str(), F_OK), 0) << "a file was written";
  for (const std::string& name : DirEntries(dir_->path()))
    EXPECT_NE(name.rfind(".nasperf-", 0), 0u) << "partial file left: " << name;
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, BadReportTest,
    ::testing::Values(
        BadReport{"empty_selection", {"--tag", "box=none", "-o", "OUT"}, "matches no stored run"},
        BadReport{"nothing_selected", {"-o", "OUT"}, "nothing selected"},
        BadReport{"unknown_run", {"999", "-o", "OUT"}, "no run with id 999"},
        BadReport{"unknown_sweep", {"s999", "-o", "OUT"}, "no sweep s999"},
        BadReport{"bad_id", {"x7", "-o", "OUT"}, "'x7'"},
        BadReport{"unwritable_output", {"--last", "1", "-o", "/nonexistent-dir/r.html"}, "-o: cannot write"},
        BadReport{"malformed_line", {"--last", "1", "-o", "OUT", "--line", "PCI GbE"}, "--line"},
        BadReport{"line_not_a_number", {"--last", "1", "-o", "OUT", "--line", "PCI=fast"}, "--line"},
        BadReport{"ids_and_filters", {"1", "--last", "1", "-o", "OUT"}, "not both"},
        BadReport{"no_output", {"--last", "1"}, "--output"}),
    [](const ::testing::TestParamInfo<BadReport>& info) { return std::string(info.param.name); });

TEST(BadReportDb, MissingDatabaseIsBadInput) {
  TempDir dir;
  CliResult r = RunNasperf({"report", "--last", "1", "-o", dir.Sub("r.html"), "--db", dir.Sub("none.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "no results database")) << r.err;
  EXPECT_TRUE(DirEntries(dir.path()).empty());
}

}  // namespace
}  // namespace nasperf::e2e
