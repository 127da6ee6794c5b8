// Tests for the report data and the HTML around it.
#include "report/report_data.h"

#include <gtest/gtest.h>

#include "report/html/assets.h"
#include "report/html_report.h"

namespace nasperf {
namespace {

RunResult MakeRun(int64_t id, const std::string& test, AccessPattern rw, double mb_per_s) {
  RunResult r;
  r.id = id;
  r.test = test;
  r.target = "/data";
  r.job.rw = rw;
  r.job.bs = 1 << 20;
  r.job.qd = test.empty() ? 1 : 8;
  DirectionResult d;
  d.mb_per_s = mb_per_s;
  d.bytes = 1000;
  (DoesReads(rw) ? r.read : r.write) = d;
  r.samples = {{1.0, mb_per_s, 0}};
  r.inventory = {{"host", {{"cpu", {{"model", "Atom D510"}}}}}};
  return r;
}

// An unnamed application run is named by its workload and where it ran, not by the
// 1 MiB writes at Q1T1 its job records (issue 18: every app run is charted by `report`).
TEST(ReportData, AnUnnamedAppRunIsLabelledByItsWorkload) {
  RunResult run = MakeRun(8, "", AccessPattern::kWrite, 430);
  run.target = "/srv/nas";
  run.app = AppFigures{};
  run.app->workload = "backup";
  ReportItem item{"r8", "run", "", {run}, {}};
  EXPECT_EQ(ItemLabel(item), "#8 backup /srv/nas");
  item.runs[0].name = "nightly";
  EXPECT_EQ(ItemLabel(item), "nightly") << "the user's name still comes first";
}

TEST(ReportData, ParsesReferenceLines) {
  Result<ReportLine> line = ParseReportLine("PCI GbE actual=67");
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(line.value().label, "PCI GbE actual");
  EXPECT_DOUBLE_EQ(line.value().mb_per_s, 67);
  EXPECT_DOUBLE_EQ(ParseReportLine("a=b=1.5").value().mb_per_s, 1.5) << "the last = separates the value";
  for (const char* bad : {"67", "=67", "label=", "label=fast", "label=-3", "label=0", "label=nan", "label=1e999"}) {
    Result<ReportLine> r = ParseReportLine(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find("--line"), std::string::npos);
  }
  std::vector<ReportLine> defaults = DefaultReportLines();
  ASSERT_EQ(defaults.size(), 2u);
  EXPECT_DOUBLE_EQ(defaults[0].mb_per_s, 12.5);
  EXPECT_DOUBLE_EQ(defaults[1].mb_per_s, 125);
}

TEST(ReportData, ItemsCarryRunsFactsAndSweepPoints) {
  ReportItem quick{"q3", "quick", "", {MakeRun(10, "SEQ1M Q8T1", AccessPattern::kRead, 110), MakeRun(11, "RND4K Q1T1", AccessPattern::kWrite, 5)}, {}};
  quick.runs[1].job.qd = 1;
  quick.runs[0].tags = {{"mtu", "9000"}};
  ReportItem sweep{"s4", "sweep", "Atom + Openfiler", {MakeRun(20, "read", AccessPattern::kRead, 31)}, SweepSummary{}};
  sweep.runs[0].cached = false;
  sweep.runs[0].job.size = 512 << 20;
  ReportMeta meta;
  meta.generated_at = "2026-11-30T12:00:00Z";
  nlohmann::ordered_json data = BuildReportData({quick, sweep}, {{"1 GbE", 125}}, meta);

  ASSERT_EQ(data["items"].size(), 2u);
  const auto& q = data["items"][0];
  EXPECT_EQ(q["key"], "q3");
  EXPECT_EQ(q["label"], "mtu=9000") << "tags label an unnamed item";
  EXPECT_EQ(q["run_ids"], nlohmann::ordered_json({10, 11}));
  EXPECT_EQ(q["facts"]["job.qd"], "varies") << "a job field that differs inside the item";
  EXPECT_EQ(q["facts"]["host.cpu.model"], "Atom D510");
  EXPECT_EQ(q["facts"]["tags.mtu"], "9000") << "tags are facts too: they are what a reader compares";
  EXPECT_EQ(q["facts"]["job.bs"], 1 << 20) << "numbers stay numbers";
  const auto& s = data["items"][1];
  EXPECT_EQ(s["label"], "Atom + Openfiler");
  ASSERT_TRUE(s.contains("sweep"));
  ASSERT_EQ(s["points"].size(), 1u);
  EXPECT_EQ(s["points"][0]["file_bytes"], 512 << 20);
  EXPECT_EQ(s["points"][0]["mb_per_s"], 31.0);
  EXPECT_EQ(s["points"][0]["cached"], false);

  ASSERT_EQ(data["runs"].size(), 2u) << "sweep points are not repeated as runs";
  EXPECT_EQ(data["runs"][0]["item"], "q3");
  EXPECT_FALSE(data["runs"][0].contains("inventory")) << "the facts carry it once";
  EXPECT_EQ(data["runs"][0]["samples"].size(), 1u);
  EXPECT_EQ(data["lines"][0]["mb_per_s"], 125.0);
  EXPECT_EQ(data["generated_at"], "2026-11-30T12:00:00Z");
}

TEST(HtmlReport, EscapesClosingTagsAndFillsEveryPlaceholder) {
  EXPECT_EQ(EscapeForScript("a</script>b"), "a<\\/script>b");
  EXPECT_EQ(EscapeForScript("<<//"), "<<\\//");
  EXPECT_EQ(EscapeJsonForScript(R"({"t":"<!--<script>"})"), R"({"t":"\u003c!--\u003cscript>"})");
  nlohmann::ordered_json data = {{"title", "</script><script>alert(1)</script>"}, {"items", nlohmann::json::array()}};
  Result<std::string> html = RenderHtmlReport(data);
  ASSERT_TRUE(html.ok()) << html.status().message();
  EXPECT_EQ(html.value().find("/*@NASPERF_"), std::string::npos) << "a placeholder was left";
  EXPECT_EQ(html.value().find("</script><script>alert(1)"), std::string::npos) << "data closed its script element";
  EXPECT_NE(html.value().find("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"), std::string::npos);
  // The data reads back as it was.
  size_t open = html.value().find("id=\"nasperf-data\">");
  ASSERT_NE(open, std::string::npos);
  size_t begin = html.value().find('{', open), end = html.value().find("</script>", begin);
  nlohmann::json back = nlohmann::json::parse(html.value().substr(begin, end - begin), nullptr, false);
  ASSERT_FALSE(back.is_discarded());
  EXPECT_EQ(back["title"], "</script><script>alert(1)</script>");
  EXPECT_GT(html.value().size(), EchartsJs().size()) << "the charting library is inside the file";
  EXPECT_GT(EchartsJs().size(), 100000u);
  EXPECT_NE(EchartsJs().find("echarts"), std::string_view::npos);
  EXPECT_EQ(EchartsJs().find("</script"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
