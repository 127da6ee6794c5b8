// E2E tests of a stored diagnosis (issue 17): `results show dN` (text and --json),
// `results list` (one line per diagnosis, its steps folded in), `report dN` and a report of
// its steps (the waterfall's data and the table), and bad ids (one line, exit 2). The
// diagnosis is stored through the store's API (no NAS to diagnose); its steps are real
// `run null:` runs tagged diagnosis=d1.
#include <unistd.h>

#include <string>
#include <vector>

#include "cli_harness.h"
#include "model/diagnosis_json.h"
#include "report/diagnosis_text.h"
#include "store/results_store.h"
#include "testing/pci_nic_diagnosis.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

json EmbeddedData(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"nasperf-data\">";
  size_t begin = html.find(open);
  if (begin == std::string::npos) return json();
  begin += open.size();
  size_t end = html.find("</script>", begin);
  return json::parse(html.substr(begin, end - begin), nullptr, false);
}

class DiagnosisE2eTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    Result<ResultsStore> store = ResultsStore::Open(Db());
    ASSERT_TRUE(store.ok()) << store.status().message();
    *Stored() = testing::PciNicDiagnosis();
    Diagnosis& d = *Stored();
    d.id = store.value().BeginDiagnosis(d.started_at, d.command_line, d.evidence.target).value();
    ASSERT_EQ(d.id, 1);
    ASSERT_TRUE(store.value().FinishDiagnosis(d).ok());
    // A diagnosis killed before its first step: reserved, never finished.
    ASSERT_EQ(store.value().BeginDiagnosis("2026-12-01T20:00:00Z", "nasperf diagnose /mnt/x", "/mnt/x").value(), 2);
    for (const char* name : {"step one", "step two"}) {
      CliResult r = RunNasperf(
          {"run", "null:", "--size", "8m", "--bs", "1m", "--name", name, "--tag", "diagnosis=d1", "--db", Db()});
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    CliResult plain = RunNasperf({"run", "null:", "--size", "8m", "--bs", "1m", "--name", "plain", "--db", Db()});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Path(const std::string& name) { return dir_->Sub(name); }
  static std::string Db() { return Path("results.db"); }
  static Diagnosis* Stored() {
    static Diagnosis d;
    return &d;
  }
  static TempDir* dir_;
};
TempDir* DiagnosisE2eTest::dir_ = nullptr;

TEST_F(DiagnosisE2eTest, ShowPrintsTheWaterfallThenItsSteps) {
  CliResult r = RunNasperf({"results", "show", "d1", "--db", Db()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  const std::vector<std::string> table = DiagnosisTable(*Stored());
  ASSERT_GE(lines.size(), table.size() + 4) << r.out;
  EXPECT_EQ(std::vector<std::string>(lines.begin(), lines.begin() + table.size()), table) << r.out;
  EXPECT_EQ(lines[table.size()], "command: " + Stored()->command_line);
  EXPECT_EQ(lines[table.size() + 1], "steps (stored runs tagged diagnosis=d1): 2");
  EXPECT_TRUE(Contains(lines[table.size() + 2], "step one")) << r.out;
  EXPECT_TRUE(Contains(lines[table.size() + 3], "step two")) << r.out;

  json doc = NasperfJson({"results", "show", "d1", "--db", Db(), "--json"});
  EXPECT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["name"], "step one");
  EXPECT_EQ(doc["diagnosis"], json::parse(DiagnosisToJson(*Stored()).dump()));

  // The one that never finished says so instead of inventing figures.
  CliResult killed = RunNasperf({"results", "show", "d2", "--db", Db()});
  ASSERT_EQ(killed.exit_code, 0) << killed.err;
  EXPECT_EQ(
      Lines(killed.out)[0],
      "diagnosis d2 of /mnt/x, 2026-12-01T20:00:00Z (partial: the diagnosis ended before it stored its findings)");
  EXPECT_TRUE(Contains(killed.out, "end to end: not measured; capped by: unknown")) << killed.out;
}

TEST_F(DiagnosisE2eTest, ListShowsEachDiagnosisAsOneLine) {
  CliResult r = RunNasperf({"results", "list", "--db", Db()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> d1, d2, steps, plain;
  for (const std::string& line : Lines(r.out)) {
    if (line.rfind("   d1  ", 0) == 0) d1.push_back(line);
    if (line.rfind("   d2  ", 0) == 0) d2.push_back(line);
    if (Contains(line, "step one") || Contains(line, "step two")) steps.push_back(line);
    if (Contains(line, "plain")) plain.push_back(line);
  }
  ASSERT_EQ(d1.size(), 1u) << r.out;
  EXPECT_TRUE(Contains(d1[0], "diagnosis of 2 steps, 61.8 MB/s end to end, capped by network, see results show d1"))
      << d1[0];
  ASSERT_EQ(d2.size(), 1u) << r.out;
  EXPECT_TRUE(Contains(d2[0], "diagnosis of 0 steps, end to end not measured")) << d2[0];
  EXPECT_TRUE(Contains(d2[0], "[partial]")) << d2[0];
  EXPECT_TRUE(steps.empty()) << "a diagnosis's steps are listed apart:\n" << r.out;
  EXPECT_EQ(plain.size(), 1u) << r.out;

  // Filtered by its tag: the diagnosis alone; the step-less one is not among the matches.
  CliResult tagged = RunNasperf({"results", "list", "--tag", "diagnosis=d1", "--db", Db()});
  ASSERT_EQ(tagged.exit_code, 0) << tagged.err;
  ASSERT_EQ(Lines(tagged.out).size(), 2u) << tagged.out;
  EXPECT_EQ(Lines(tagged.out)[1].rfind("   d1  ", 0), 0u) << tagged.out;

  json doc = NasperfJson({"results", "list", "--db", Db(), "--json"});
  EXPECT_TRUE(HasDocumentShape(doc));
  EXPECT_EQ(doc["runs"].size(), 3u);
  ASSERT_EQ(doc["diagnoses"].size(), 2u) << doc.dump(2);
  EXPECT_EQ(doc["diagnoses"][0]["id"], "d2");
  EXPECT_EQ(doc["diagnoses"][1]["id"], "d1");
  EXPECT_EQ(doc["diagnoses"][1]["cap_layer"], "network");
  EXPECT_EQ(doc["diagnoses"][1]["end_to_end_mb_per_s"], 61.8);
}

TEST_F(DiagnosisE2eTest, ReportOfTheDiagnosisOrItsStepsDrawsItsWaterfall) {
  const std::string out = Path("d1.html");
  CliResult r = RunNasperf({"report", "d1", "-o", out, "--db", Db()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "1 item(s), 2 run(s)")) << r.out;
  json data = EmbeddedData(ReadFileBytes(out));
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["items"].size(), 1u);
  const json& item = data["items"][0];
  EXPECT_EQ(item["kind"], "diagnosis");
  EXPECT_EQ(item["key"], "d1");
  EXPECT_EQ(item["label"], "diagnosis d1 smb://bench@198.18.0.2/bench");
  EXPECT_EQ(item["run_ids"].size(), 2u);
  EXPECT_EQ(item["table"], json(DiagnosisTable(*Stored())));
  const json& w = item["waterfall"];
  ASSERT_EQ(w["rows"].size(), Stored()->waterfall.size());
  EXPECT_EQ(w["rows"][3]["layer"], "network");
  EXPECT_EQ(w["rows"][3]["mb_per_s"], 64.2);
  EXPECT_EQ(w["rows"][3]["caps"], true);
  EXPECT_EQ(w["rows"][5]["cached"], true);
  EXPECT_TRUE(w["rows"][6]["mb_per_s"].is_null());
  EXPECT_EQ(w["line_rate_mb_per_s"], 125.0);
  EXPECT_EQ(w["line_rate_mbps"], 1000);
  EXPECT_EQ(w["payload_max_mb_per_s"], 118.7);
  EXPECT_EQ(w["cap_layer"], "network");
  EXPECT_TRUE(data["runs"].empty()) << "the steps are the waterfall's evidence, not bars of their own";

  // Its steps, by tag or by a step's run id, bring the diagnosis.
  for (const std::vector<std::string>& select :
       {std::vector<std::string>{"--tag", "diagnosis=d1"}, std::vector<std::string>{"1"}}) {
    std::vector<std::string> args = {"report", "-o", out, "--db", Db()};
    args.insert(args.begin() + 1, select.begin(), select.end());
    CliResult again = RunNasperf(args);
    ASSERT_EQ(again.exit_code, 0) << Join(args) << "\n" << again.err;
    json d = EmbeddedData(ReadFileBytes(out));
    ASSERT_EQ(d["items"].size(), 1u) << Join(args);
    EXPECT_EQ(d["items"][0]["key"], "d1") << Join(args);
  }
}

TEST_F(DiagnosisE2eTest, BadDiagnosisIdsGetOneLineAndExit2) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"dX", "ID: 'dX' is not a run id (12), a sweep id (s7) or a diagnosis id (d3)"},
      {"d0", "ID: 'd0' is not a run id"},
      {"d", "ID: 'd' is not a run id"},
      {"d-1", "ID: 'd-1' is not a run id"},
      {"d999", "no diagnosis d999 in " + Db()},
  };
  for (const auto& [id, words] : cases) {
    CliResult show = RunNasperf({"results", "show", id, "--db", Db()});
    EXPECT_EQ(show.exit_code, 2) << id << "\n" << show.out << show.err;
    EXPECT_EQ(Lines(show.err).size(), 1u) << show.err;
    EXPECT_TRUE(Contains(show.err, words)) << show.err;
    EXPECT_TRUE(show.out.empty()) << show.out;
    const std::string out = Path("bad.html");
    CliResult report = RunNasperf({"report", id, "-o", out, "--db", Db()});
    EXPECT_EQ(report.exit_code, 2) << id << "\n" << report.err;
    EXPECT_EQ(Lines(report.err).size(), 1u) << report.err;
    EXPECT_TRUE(Contains(report.err, words)) << report.err;
    EXPECT_NE(::access(out.c_str(), F_OK), 0) << "report " << id << " wrote a file";
  }
  CliResult mixed = RunNasperf({"results", "show", "d1", "3", "--db", Db()});
  EXPECT_EQ(mixed.exit_code, 2) << mixed.out;
  EXPECT_TRUE(Contains(mixed.err, "a diagnosis (d3) is shown on its own")) << mixed.err;
}

}  // namespace
}  // namespace nasperf::e2e
