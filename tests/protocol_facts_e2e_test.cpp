// E2E tests of protocol facts in stored runs: a result document with SMB, NFS, iSCSI and
// network runs (seed 002's comparison) goes in with `results import`, `results show`
// prints each run's protocol line, `results compare --line 1g` heads each column with its
// protocol and reads every MB/s figure against the 1 GbE line (table and JSON), export
// and import keep the facts, and bad input (a malformed "protocol", a bad --line) is one
// line, exit 2, nothing written.
#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

ojson Direction(double mb_per_s) {
  const double seconds = 2;
  const uint64_t bytes = static_cast<uint64_t>(mb_per_s * 1e6 * seconds);
  return {{"bytes", bytes},
          {"ios", bytes / (1 << 20)},
          {"seconds", seconds},
          {"mb_per_s", mb_per_s},
          {"iops", bytes / (1 << 20) / seconds},
          {"lat_us", {{"mean", 9000}, {"p50", 8800}, {"p90", 9900}, {"p99", 12000}, {"p999", 15000}, {"max", 16000}}}};
}

ojson Run(const std::string& name, const std::string& target, const std::string& engine, double read, double write,
          const ojson& protocol) {
  ojson run = {{"name", name},
               {"target", target},
               {"partial", false},
               {"started_at", "2026-12-01T10:00:00Z"},
               {"job",
                {{"rw", "rw"},
                 {"bs", 1 << 20},
                 {"qd", 1},
                 {"threads", 1},
                 {"size", 1 << 30},
                 {"time_s", 10},
                 {"direct", true},
                 {"engine", engine}}},
               {"read", Direction(read)},
               {"write", Direction(write)},
               {"cpu", {{"user_pct", 1.0}, {"sys_pct", 2.0}}},
               {"samples", ojson::array()},
               {"tags", {{"nas", "ss4200"}}},
               {"command_line", "nasperf run " + target}};
  run["protocol"] = protocol;
  return run;
}

// Seed 002's SS4200 from Linux: SMB and iSCSI as the post measured them, NFS and the
// bare network beside them.
ojson SeedDocument() {
  ojson smb = {{"protocol", "SMB"},    {"version", "3.1.1"},
               {"label", "SMB 3.1.1"}, {"server", "198.18.0.2"},
               {"share", "bench"},     {"options", {{"signing", "off"}, {"encryption", "off"}, {"max read", "8 MiB"}}}};
  ojson nfs = {
      {"protocol", "NFS"},
      {"version", "3"},
      {"label", "NFSv3"},
      {"server", "198.18.0.2"},
      {"share", "/bench"},
      {"options",
       {{"transport", "TCP"}, {"max read", "1 MiB"}, {"max write", "1 MiB"}, {"client cache", "none (libnfs)"}}}};
  ojson iscsi = {{"protocol", "iSCSI"},
                 {"version", ""},
                 {"label", "iSCSI"},
                 {"server", "198.18.0.2"},
                 {"share", "iqn.2026-11.lab.nasperf:bench/0"},
                 {"options", {{"capacity", "512 MiB"}, {"block size", "512 B"}}}};
  ojson doc = {{"nasperf", {{"version", "0.1.0"}}}, {"runs", ojson::array()}};
  doc["runs"].push_back(Run("smb", "smb://bench@198.18.0.2/bench", "smb", 60.0, 73.6, smb));
  doc["runs"].push_back(Run("nfs", "nfs://198.18.0.2/bench", "nfs", 110.6, 112.4, nfs));
  doc["runs"].push_back(Run("iscsi", "iscsi://198.18.0.2/iqn.2026-11.lab.nasperf:bench/0", "iscsi", 54.2, 88.7, iscsi));
  ojson net = Run("net", "net://198.18.0.2:7777", "net", 117.7, 117.9, nullptr);
  net["read"]["ios"] = 0;
  net["read"]["iops"] = 0;
  net["write"]["ios"] = 0;
  net["write"]["iops"] = 0;
  doc["runs"].push_back(net);
  return doc;
}

// Imports `doc` into `db`; the stored runs' ids in document order.
std::vector<std::string> ImportDocument(const TempDir& dir, const std::string& db, const ojson& doc) {
  const std::string file = dir.Sub("runs.json");
  EXPECT_TRUE(WriteFileBytes(file, doc.dump(2)));
  json out = NasperfJson({"results", "import", file, "--db", db, "--json"});
  std::vector<std::string> ids;
  for (const json& r : out.value("runs", json::array())) ids.push_back(std::to_string(r.value("id", 0)));
  EXPECT_EQ(ids.size(), doc["runs"].size()) << out.dump(2);
  return ids;
}

TEST(ProtocolFactsE2eTest, ShowPrintsTheProtocolLine) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  std::vector<std::string> ids = ImportDocument(dir, db, SeedDocument());
  ASSERT_EQ(ids.size(), 4u);
  CliResult nfs = RunNasperf({"results", "show", ids[1], "--db", db});
  ASSERT_EQ(nfs.exit_code, 0) << nfs.err;
  EXPECT_TRUE(Contains(nfs.out,
                       "protocol: NFSv3 to 198.18.0.2, export /bench (transport TCP, max read 1 MiB, max write 1 MiB, "
                       "client cache none (libnfs))\n"))
      << nfs.out;
  CliResult smb = RunNasperf({"results", "show", ids[0], "--db", db});
  EXPECT_TRUE(
      Contains(smb.out, "protocol: SMB 3.1.1 to 198.18.0.2, share bench (signing off, encryption off, max read 8 MiB)"))
      << smb.out;
  CliResult net = RunNasperf({"results", "show", ids[3], "--db", db});
  ASSERT_EQ(net.exit_code, 0) << net.err;
  EXPECT_FALSE(Contains(net.out, "protocol:")) << net.out;

  json shown = NasperfJson({"results", "show", ids[2], "--db", db, "--json"});
  ASSERT_TRUE(HasDocumentShape(shown));
  const json& p = shown["runs"][0]["protocol"];
  EXPECT_EQ(p.value("label", ""), "iSCSI") << p.dump();
  EXPECT_EQ(p.value("share", ""), "iqn.2026-11.lab.nasperf:bench/0");
  EXPECT_EQ(p["options"].value("capacity", ""), "512 MiB");
  json local = NasperfJson({"results", "show", ids[3], "--db", db, "--json"});
  ASSERT_TRUE(local["runs"][0].contains("protocol"));
  EXPECT_TRUE(local["runs"][0]["protocol"].is_null());
}

TEST(ProtocolFactsE2eTest, CompareLineOneGigabitHeadsColumnsWithProtocols) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  std::vector<std::string> ids = ImportDocument(dir, db, SeedDocument());
  ASSERT_EQ(ids.size(), 4u);
  std::vector<std::string> args = {"results", "compare", ids[0], ids[1], ids[2], ids[3], "--line", "1g", "--db", db};
  CliResult human = RunNasperf(args);
  ASSERT_EQ(human.exit_code, 0) << Join(args) << "\n" << human.err;
  std::vector<std::string> lines = Lines(human.out);
  ASSERT_GE(lines.size(), 3u) << human.out;
  EXPECT_EQ(lines[0], "line: 1 GbE line 125 MB/s (--line 1g); each MB/s figure also as % of it") << human.out;
  for (const std::string& heading :
       {"#" + ids[0] + " SMB 3.1.1", "#" + ids[1] + " NFSv3", "#" + ids[2] + " iSCSI", "#" + ids[3] + " net"})
    EXPECT_TRUE(Contains(lines[1], heading)) << heading << " not in the heading line:\n" << human.out;
  std::string read_line;
  for (const std::string& line : lines)
    if (line.rfind("read MB/s", 0) == 0) read_line = line;
  // 60.0 / 125 = 48 %, 110.6 -> 88 %, 54.2 -> 43 %, 117.7 -> 94 %.
  EXPECT_TRUE(Contains(read_line, "60.00  48 % of line")) << human.out;
  EXPECT_TRUE(Contains(read_line, "110.60 (+84.3 %)  88 % of line")) << human.out;
  EXPECT_TRUE(Contains(read_line, "54.20 (-9.7 %)  43 % of line")) << human.out;
  EXPECT_TRUE(Contains(read_line, "117.70 (+96.2 %)  94 % of line")) << human.out;
  EXPECT_TRUE(Contains(human.out, "protocol: SMB 3.1.1 vs NFSv3 (#" + ids[1] + " NFSv3 nfs nas=ss4200)")) << human.out;
  // Options of different protocols are not differences worth listing one by one.
  EXPECT_FALSE(Contains(human.out, "protocol.transport")) << human.out;

  args.push_back("--json");
  json doc = NasperfJson(args);
  ASSERT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(doc["runs"].size(), 4u);
  EXPECT_EQ(doc["runs"][0]["protocol"].value("label", ""), "SMB 3.1.1");
  EXPECT_TRUE(doc["runs"][3]["protocol"].is_null());
  ASSERT_TRUE(doc.contains("compare")) << doc.dump(2);
  const json& cmp = doc["compare"];
  ASSERT_TRUE(cmp["line"].is_object()) << cmp.dump(2);
  EXPECT_EQ(cmp["line"]["rate"], "1g");
  EXPECT_EQ(cmp["line"]["mb_per_s"].get<double>(), 125.0);
  EXPECT_EQ(cmp["line"]["label"], "1 GbE line 125 MB/s");
  EXPECT_EQ(cmp["protocols"], json({"SMB 3.1.1", "NFSv3", "iSCSI", nullptr}));
  EXPECT_EQ(cmp["columns"][1], "#" + ids[1] + " NFSv3 nfs nas=ss4200");
  const json* read = FindRow(cmp, "read MB/s");
  ASSERT_NE(read, nullptr) << cmp.dump(2);
  const double want[] = {48.0, 88.48, 43.36, 94.16};
  for (size_t c = 0; c < 4; ++c) {
    ASSERT_TRUE((*read)["cells"][c].is_object()) << read->dump(2);
    EXPECT_NEAR((*read)["cells"][c]["pct_of_line"].get<double>(), want[c], 1e-9) << c;
  }
  const json* iops = FindRow(cmp, "read IOPS");
  ASSERT_NE(iops, nullptr);
  EXPECT_FALSE((*iops)["cells"][0].contains("pct_of_line"));
  EXPECT_TRUE((*iops)["cells"][3].is_null()) << "a network run has no IOPS: " << iops->dump();

  // Without --line the comparison has no line and no percentages of it.
  json plain = NasperfJson({"results", "compare", ids[0], ids[1], "--db", db, "--json"});
  EXPECT_TRUE(plain["compare"]["line"].is_null());
  EXPECT_FALSE(FindRow(plain["compare"], "read MB/s")->at("cells")[0].contains("pct_of_line"));
}

// The issue's "done when" ends with a bare `results compare`: with no IDs it takes the
// newest run of each target, oldest first, and says so.
TEST(ProtocolFactsE2eTest, CompareWithoutIdsTakesTheNewestRunOfEachTarget) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  ojson doc = SeedDocument();
  ojson older_smb = doc["runs"][0];
  older_smb["name"] = "older smb";
  doc["runs"].insert(doc["runs"].begin(), older_smb);  // stored first: an older run of the same share
  std::vector<std::string> ids = ImportDocument(dir, db, doc);
  ASSERT_EQ(ids.size(), 5u);
  json cmp = NasperfJson({"results", "compare", "--line", "1g", "--db", db, "--json"});
  ASSERT_TRUE(cmp.contains("compare")) << cmp.dump(2);
  std::vector<std::string> headings;
  for (const json& h : cmp["compare"].value("columns", json::array())) headings.push_back(h.get<std::string>());
  ASSERT_EQ(headings.size(), 4u) << cmp["compare"].dump(2);
  EXPECT_TRUE(Contains(headings[0], "#" + ids[1] + " SMB 3.1.1")) << headings[0];  // the newer SMB run only
  EXPECT_TRUE(Contains(headings[1], "#" + ids[2] + " NFSv3")) << headings[1];
  EXPECT_TRUE(Contains(headings[2], "#" + ids[3] + " iSCSI")) << headings[2];
  EXPECT_TRUE(Contains(headings[3], "#" + ids[4] + " net")) << headings[3];
  CliResult human = RunNasperf({"results", "compare", "--db", db});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_EQ(Lines(human.out)[0], "the newest run of each target (name run IDs to choose others)");

  CliResult one = RunNasperf({"results", "compare", ids[0], "--db", db});
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_EQ(Lines(one.err).size(), 1u) << one.err;
  TempDir empty;
  ASSERT_TRUE(empty.ok());
  const std::string empty_db = empty.Sub("results.db");
  ImportDocument(empty, empty_db, ojson{{"nasperf", {{"version", "0.1.0"}}}, {"runs", ojson::array({older_smb})}});
  CliResult lonely = RunNasperf({"results", "compare", "--db", empty_db});
  EXPECT_EQ(lonely.exit_code, 2);
  EXPECT_TRUE(Contains(lonely.err, "1 target(s) only")) << lonely.err;
}

TEST(ProtocolFactsE2eTest, ExportThenImportKeepsTheFactsInOrder) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  ImportDocument(dir, db, SeedDocument());
  CliResult exported = RunNasperf({"results", "export", "--json", "--db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::string file = dir.Sub("export.json");
  ASSERT_TRUE(WriteFileBytes(file, exported.out));
  const std::string db2 = dir.Sub("copy.db");
  json imported = NasperfJson({"results", "import", file, "--db", db2, "--json"});
  ASSERT_EQ(imported.value("runs", json::array()).size(), 4u) << imported.dump(2);
  CliResult again = RunNasperf({"results", "export", "--json", "--db", db2});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  // Export lists newest first and import stores in file order: match the runs by target.
  ojson a = ojson::parse(exported.out), b = ojson::parse(again.out);
  ASSERT_EQ(a["runs"].size(), 4u);
  ASSERT_EQ(b["runs"].size(), 4u);
  size_t with_facts = 0;
  for (const ojson& before : a["runs"]) {
    SCOPED_TRACE(before.value("target", ""));
    const ojson* after = nullptr;
    for (const ojson& r : b["runs"])
      if (r.value("target", "") == before.value("target", "")) after = &r;
    ASSERT_NE(after, nullptr);
    EXPECT_EQ((*after)["protocol"].dump(), before["protocol"].dump()) << "facts changed or options reordered";
    EXPECT_EQ((*after)["command_line"], before["command_line"]) << "the measuring command was replaced";
    if (before["protocol"].is_object()) ++with_facts;
  }
  EXPECT_EQ(with_facts, 3u);
}

TEST(ProtocolFactsE2eTest, AMalformedProtocolIsOneLineExitTwoNothingWritten) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  ojson bad_value = SeedDocument();
  bad_value["runs"][2]["protocol"]["options"]["capacity"] = 536870912;
  ojson not_object = SeedDocument();
  not_object["runs"][1]["protocol"] = "NFSv3";
  ojson no_name = SeedDocument();
  no_name["runs"][0]["protocol"].erase("protocol");
  struct Case {
    ojson doc;
    std::string words;
  };
  for (const Case& c : {Case{bad_value, "runs[2]: protocol.options.capacity: expected a string"},
                        Case{not_object, "runs[1]: protocol: expected an object or null"},
                        Case{no_name, "runs[0]: protocol.protocol: missing"}}) {
    SCOPED_TRACE(c.words);
    const std::string file = dir.Sub("bad.json");
    ASSERT_TRUE(WriteFileBytes(file, c.doc.dump(2)));
    for (const std::string& format : {"auto", "nasperf"}) {
      CliResult r = RunNasperf({"results", "import", file, "--format", format, "--db", db});
      EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
      EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
      EXPECT_TRUE(Contains(r.err, file + ": " + c.words)) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
      EXPECT_TRUE(DirEntries(dir.path()) == std::vector<std::string>{"bad.json"})
          << "something was written: " << ::testing::PrintToString(DirEntries(dir.path()));
    }
  }
  // Into an existing database: still nothing stored.
  ImportDocument(dir, db, SeedDocument());
  CliResult before = RunNasperf({"results", "list", "--db", db, "--json"});
  ASSERT_TRUE(WriteFileBytes(dir.Sub("bad.json"), bad_value.dump()));
  CliResult r = RunNasperf({"results", "import", dir.Sub("bad.json"), "--db", db});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(RunNasperf({"results", "list", "--db", db, "--json"}).out, before.out);
  // --format nasperf on a file that is not JSON names the file.
  ASSERT_TRUE(WriteFileBytes(dir.Sub("notes.txt"), "Read: 110,6 Mbyte/sec\n"));
  CliResult text = RunNasperf({"results", "import", dir.Sub("notes.txt"), "--format", "nasperf", "--db", db});
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_EQ(Lines(text.err).size(), 1u) << text.err;
  EXPECT_TRUE(Contains(text.err, "notes.txt: not JSON")) << text.err;
}

TEST(ProtocolFactsE2eTest, ABadLineRateIsOneLineNamingTheOption) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  std::vector<std::string> ids = ImportDocument(dir, db, SeedDocument());
  ASSERT_EQ(ids.size(), 4u);
  for (const std::vector<std::string>& line : std::vector<std::vector<std::string>>{
           {"--line", "fast"}, {"--line", "0"}, {"--line", "-5"}, {"--line=-5"}, {"--line", "1gbit/s"}}) {
    std::vector<std::string> args = {"results", "compare", ids[0], ids[1], "--db", db};
    args.insert(args.end(), line.begin(), line.end());
    CliResult r = RunNasperf(args);
    EXPECT_EQ(r.exit_code, 2) << Join(args) << "\n" << r.out << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << Join(args) << "\n" << r.err;
    EXPECT_TRUE(Contains(r.err, "--line")) << Join(args) << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace nasperf::e2e
