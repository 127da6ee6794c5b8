// Compare: --line rates, figures as % of the line, protocol labels per column, network
// runs beside protocol runs, and protocol facts among the differences.
#include "report/compare.h"

#include <gtest/gtest.h>

#include "testing/compare_rows.h"

namespace nasperf {
namespace {

RunResult SeqRun(const std::string& engine, double read_mb_per_s, double write_mb_per_s) {
  RunResult r;
  r.engine = engine;
  r.target = engine + "://nas/bench";
  r.job.rw = AccessPattern::kReadWrite;
  r.job.bs = 1 << 20;
  if (read_mb_per_s > 0) r.read = DirectionResult{1, 1, 1, read_mb_per_s, 100, {10, 9, 11, 12, 13, 14}, 0, nullptr};
  if (write_mb_per_s > 0) r.write = DirectionResult{1, 1, 1, write_mb_per_s, 90, {20, 19, 21, 22, 23, 24}, 0, nullptr};
  return r;
}

ProtocolFacts Facts(const std::string& protocol, const std::string& version) {
  ProtocolFacts f;
  f.protocol = protocol;
  f.version = version;
  f.server = "198.18.0.2";
  f.share = "bench";
  return f;
}

using testing::FindRow;

TEST(LineRate, ParsesGigabitsMegabitsAndMegabytes) {
  struct Case {
    const char* text;
    double mb_per_s;
    const char* label;
  };
  for (const Case& c : {Case{"1g", 125, "1 GbE line 125 MB/s"}, Case{"100m", 12.5, "100 Mbit/s line 12.5 MB/s"},
                        Case{"10g", 1250, "10 GbE line 1250 MB/s"}, Case{"2.5g", 312.5, "2.5 GbE line 312.5 MB/s"},
                        Case{"2.5G", 312.5, "2.5 GbE line 312.5 MB/s"}, Case{"67", 67, "line 67 MB/s"},
                        Case{"117.5", 117.5, "line 117.5 MB/s"}}) {
    SCOPED_TRACE(c.text);
    Result<LineRate> line = ParseLineRate(c.text);
    ASSERT_TRUE(line.ok()) << line.status().message();
    EXPECT_DOUBLE_EQ(line.value().mb_per_s, c.mb_per_s);
    EXPECT_EQ(line.value().label, c.label);
    EXPECT_EQ(line.value().text, c.text);
  }
}

TEST(LineRate, RefusesWhatIsNotARate) {
  for (const char* text : {"fast", "0", "-5", "0g", "0.0", "", "1e3", "inf", "nan", "1 g", "1gb", "g", "1..5g", "+5"}) {
    SCOPED_TRACE(text);
    Result<LineRate> line = ParseLineRate(text);
    ASSERT_FALSE(line.ok());
    EXPECT_EQ(line.status().kind(), ErrorKind::kBadInput);
    EXPECT_EQ(line.status().message().rfind("--line: '", 0), 0u) << line.status().message();
    EXPECT_EQ(line.status().message().find('\n'), std::string::npos);
  }
}

// std::regex recursed once per character: a 100 KB --line crashed `results compare`.
TEST(LineRate, LongTextIsRefusedWithoutRecursion) {
  for (const std::string& text : {std::string(1 << 20, '1'), std::string(1 << 20, '1') + "x", std::string(1 << 20, 'g')}) {
    Result<LineRate> line = ParseLineRate(text);
    ASSERT_FALSE(line.ok());
    EXPECT_EQ(line.status().kind(), ErrorKind::kBadInput);
  }
}

TEST(CompareLine, EveryMbPerSecondFigureAlsoAsPercentOfTheLine) {
  RunResult smb = SeqRun("smb", 117.7, 100);
  smb.protocol = Facts("SMB", "3.1.1");
  RunResult nfs = SeqRun("nfs", 110, 62.5);
  nfs.protocol = Facts("NFS", "3");
  Comparison cmp = Compare({{"#12 SMB 3.1.1", {smb}}, {"#13 NFSv3", {nfs}}}, ParseLineRate("1g").value());
  ASSERT_TRUE(cmp.line.has_value());
  EXPECT_EQ(cmp.protocols, (std::vector<std::string>{"SMB 3.1.1", "NFSv3"}));
  const CompareRow* read = FindRow(cmp, "read MB/s");
  ASSERT_NE(read, nullptr);
  ASSERT_TRUE(read->cells[0].pct_of_line && read->cells[1].pct_of_line);
  EXPECT_NEAR(*read->cells[0].pct_of_line, 94.16, 1e-9);
  EXPECT_NEAR(*read->cells[1].pct_of_line, 88, 1e-9);
  EXPECT_NEAR(*FindRow(cmp, "write MB/s")->cells[1].pct_of_line, 50, 1e-9);
  EXPECT_FALSE(FindRow(cmp, "read IOPS")->cells[0].pct_of_line.has_value());

  std::string table = ComparisonTable(cmp);
  EXPECT_EQ(table.rfind("line: 1 GbE line 125 MB/s (--line 1g)", 0), 0u) << table;
  EXPECT_NE(table.find("117.70  94 % of line"), std::string::npos) << table;
  EXPECT_NE(table.find("110.00 (-6.5 %)  88 % of line"), std::string::npos) << table;
  EXPECT_NE(table.find("#13 NFSv3"), std::string::npos) << table;
  EXPECT_NE(table.find("protocol: SMB 3.1.1 vs NFSv3 (#13 NFSv3)"), std::string::npos) << table;

  nlohmann::ordered_json j = ComparisonToJson(cmp);
  EXPECT_EQ(j["line"]["rate"], "1g");
  EXPECT_EQ(j["line"]["mb_per_s"], 125.0);
  EXPECT_EQ(j["line"]["label"], "1 GbE line 125 MB/s");
  EXPECT_EQ(j["protocols"][1], "NFSv3");
  bool found = false;
  for (const auto& row : j["rows"])
    if (row["label"] == "read MB/s") {
      found = true;
      EXPECT_NEAR(row["cells"][0]["pct_of_line"].get<double>(), 94.16, 1e-9);
    } else if (row["unit"] != "MB/s") {
      EXPECT_FALSE(row["cells"][0].contains("pct_of_line")) << row.dump();
    }
  EXPECT_TRUE(found);
}

TEST(CompareLine, WithoutALineNothingChanges) {
  Comparison cmp = Compare({{"#1", {SeqRun("psync", 500, 400)}}, {"#2", {SeqRun("psync", 450, 300)}}});
  EXPECT_FALSE(cmp.line.has_value());
  EXPECT_FALSE(FindRow(cmp, "read MB/s")->cells[0].pct_of_line.has_value());
  EXPECT_EQ(ComparisonTable(cmp).find("of line"), std::string::npos);
  nlohmann::ordered_json j = ComparisonToJson(cmp);
  EXPECT_TRUE(j["line"].is_null());
  EXPECT_TRUE(j["protocols"][0].is_null());
}

TEST(CompareSuites, APlainRunJoinsTheSuiteRowOfItsWorkload) {
  // quick over SMB has "SEQ1M Q1T1" rows; `run iscsi://... --rw read` (1 MiB, qd 1) lines up with them.
  RunResult quick = SeqRun("smb", 119, 0);
  quick.test = "SEQ1M Q1T1";
  quick.job.rw = AccessPattern::kRead;
  RunResult plain = SeqRun("iscsi", 118, 0);
  plain.job.rw = AccessPattern::kRead;
  RunResult random = SeqRun("iscsi", 40, 0);
  random.job.rw = AccessPattern::kRandRead;
  random.job.bs = 4096;
  random.job.qd = 32;
  Comparison cmp = Compare({{"#1", {quick}}, {"#2", {plain}}, {"#3", {random}}}, std::nullopt);
  const CompareRow* row = FindRow(cmp, "SEQ1M Q1T1 read MB/s");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->cells[0].present && row->cells[1].present);
  EXPECT_DOUBLE_EQ(row->cells[1].value, 118);
  EXPECT_NE(FindRow(cmp, "RND4K Q32T1 read MB/s"), nullptr);
  // Without a suite beside them, plain runs keep their bare rows.
  Comparison bare = Compare({{"#2", {plain}}, {"#3", {random}}}, std::nullopt);
  EXPECT_NE(FindRow(bare, "read MB/s"), nullptr);
}

TEST(CompareNet, ANetworkRunSitsBesideProtocolRunsWithItsMegabytesOnly) {
  RunResult iscsi = SeqRun("iscsi", 54.2, 88.7);
  iscsi.protocol = Facts("iSCSI", "");
  RunResult net = SeqRun("net", 117.9, 118.2);
  net.read->iops = 0;
  net.read->lat = {};
  Comparison cmp = Compare({{"#14 iSCSI", {iscsi}}, {"#15 net", {net}}}, ParseLineRate("1g").value());
  const CompareRow* read = FindRow(cmp, "read MB/s");
  ASSERT_NE(read, nullptr);
  ASSERT_TRUE(read->cells[1].present);
  EXPECT_DOUBLE_EQ(read->cells[1].value, 117.9);
  EXPECT_NEAR(*read->cells[1].pct_of_line, 94.32, 1e-9);
  // No zeros posing as IOPS or latency of a TCP stream.
  EXPECT_TRUE(FindRow(cmp, "read IOPS")->cells[0].present);
  EXPECT_FALSE(FindRow(cmp, "read IOPS")->cells[1].present);
  EXPECT_FALSE(FindRow(cmp, "write p99 latency")->cells[1].present);
  EXPECT_EQ(cmp.protocols, (std::vector<std::string>{"iSCSI", ""}));
}

TEST(CompareFacts, ProtocolOptionsThatDifferAreListed) {
  RunResult a = SeqRun("nfs", 100, 0);
  a.protocol = Facts("NFS", "3");
  a.protocol->options = {{"max read", "1 MiB"}};
  RunResult b = a;
  b.protocol->options = {{"max read", "64 KiB"}};
  Comparison cmp = Compare({{"#1 NFSv3", {a}}, {"#2 NFSv3", {b}}});
  bool listed = false;
  for (const std::string& d : cmp.differences) listed = listed || d == "protocol.max read: 1 MiB vs 64 KiB (#2 NFSv3)";
  EXPECT_TRUE(listed) << ::testing::PrintToString(cmp.differences);
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

CompareColumn AppColumn(const std::string& heading, const std::string& cache_state) {
  RunResult r;
  r.app = AppFigures{};
  r.app->workload = "dir-copy";
  r.app->cache_state = cache_state;
  return CompareColumn{heading, {r}};
}

TEST(CompareCacheState, AppRunsOfDifferentCacheStatesAreNotSetSideBySide) {
  EXPECT_TRUE(CheckOneCacheState({AppColumn("#1", "cold"), AppColumn("#2", "cold")}).ok());
  EXPECT_TRUE(CheckOneCacheState({AppColumn("#1", "warm"), AppColumn("#2", "warm")}).ok());
  Status mixed = CheckOneCacheState({AppColumn("#1", "cold"), AppColumn("#2", "cold"), AppColumn("#3", "warm")});
  EXPECT_EQ(mixed.kind(), ErrorKind::kBadInput);
  EXPECT_NE(mixed.message().find("#1 ran cold and #3 ran warm"), std::string::npos) << mixed.message();
  // A state not checked is "unknown", and unknown is not cold.
  EXPECT_FALSE(CheckOneCacheState({AppColumn("#1", "cold"), AppColumn("#2", "")}).ok());
  // Runs that are not application workloads carry no cache state to mix.
  EXPECT_TRUE(CheckOneCacheState({AppColumn("#1", "cold"), CompareColumn{"#2", {SeqRun("nfs", 100, 0)}}}).ok());
}

}  // namespace
}  // namespace nasperf
