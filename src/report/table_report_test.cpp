// The protocol line of the run and quick tables (and so of `results show`).
#include "report/table_report.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

RunResult ReadRun() {
  RunResult r;
  r.target = "nfs://198.18.0.2/bench";
  r.engine = "nfs";
  r.job.rw = AccessPattern::kRead;
  r.job.bs = 1 << 20;
  r.read = DirectionResult{100'000'000, 96, 0.9, 111.1, 106, {}, 0, nullptr};
  return r;
}

ProtocolFacts Nfs() {
  ProtocolFacts f;
  f.protocol = "NFS";
  f.version = "3";
  f.server = "198.18.0.2";
  f.share = "/bench";
  f.options = {{"transport", "TCP"}, {"max read", "1 MiB"}, {"max write", "1 MiB"}, {"client cache", "none (libnfs)"}};
  return f;
}

TEST(ProtocolLine, SaysProtocolServerShareAndOptionsInOrder) {
  RunResult r = ReadRun();
  r.protocol = Nfs();
  EXPECT_EQ(ProtocolLine(r),
            "protocol: NFSv3 to 198.18.0.2, export /bench (transport TCP, max read 1 MiB, max write 1 MiB, client "
            "cache none (libnfs))\n");
  r.protocol->protocol = "iSCSI";
  r.protocol->version = "";
  r.protocol->share = "iqn.2026-11.lab.nasperf:bench/0";
  r.protocol->options = {{"capacity", "512 MiB"}};
  EXPECT_EQ(ProtocolLine(r), "protocol: iSCSI to 198.18.0.2, LUN iqn.2026-11.lab.nasperf:bench/0 (capacity 512 MiB)\n");
  r.protocol->protocol = "SMB";
  r.protocol->version = "3.1.1";
  r.protocol->share = "bench";
  r.protocol->options = {{"signing", "off"}, {"encryption", "off"}};
  EXPECT_EQ(ProtocolLine(r), "protocol: SMB 3.1.1 to 198.18.0.2, share bench (signing off, encryption off)\n");
}

TEST(ProtocolLine, RunAndQuickTablesShowItAndLocalRunsDoNot) {
  RunResult local = ReadRun();
  EXPECT_EQ(ProtocolLine(local), "");
  EXPECT_EQ(RunTable(local).find("protocol:"), std::string::npos);
  RunResult nfs = ReadRun();
  nfs.protocol = Nfs();
  std::string table = RunTable(nfs);
  size_t at = table.find("protocol: NFSv3 to 198.18.0.2, export /bench");
  ASSERT_NE(at, std::string::npos) << table;
  EXPECT_LT(at, table.find("MB/s")) << "the protocol line belongs under the job line:\n" << table;
  std::string quick = QuickTable("quick nfs://198.18.0.2/bench", {{"SEQ1M Q8T1", &nfs, nullptr}});
  EXPECT_NE(quick.find("\nprotocol: NFSv3 to 198.18.0.2"), std::string::npos) << quick;
  EXPECT_EQ(QuickTable("quick /tmp", {{"SEQ1M Q8T1", &local, nullptr}}).find("protocol:"), std::string::npos);
}

// quick smb://... ran its Q8 and Q32 tests at qd 1 (the smb engine is synchronous): the
// rows say what ran, and a footnote names the test.
TEST(QuickTable, RowsOfASynchronousEngineSayTheQueueDepthRun) {
  RunResult smb = ReadRun();
  smb.engine = "smb";
  smb.job.qd = 8;
  smb.qd_run = 1;
  RunResult asked = smb;
  asked.qd_run = 0;  // not known (an older run): the label keeps the test's
  std::string quick = QuickTable("quick smb://198.18.0.2/bench", {{"SEQ1M Q8T1", &smb, nullptr}});
  EXPECT_NE(quick.find("\nSEQ1M Q1T1* "), std::string::npos) << quick;
  EXPECT_EQ(quick.find("\nSEQ1M Q8T1"), std::string::npos) << quick;
  EXPECT_NE(quick.find("* SEQ1M Q1T1* is the test SEQ1M Q8T1, run at Q1: smb is synchronous"), std::string::npos)
      << quick;
  std::string old = QuickTable("quick", {{"SEQ1M Q8T1", &asked, nullptr}});
  EXPECT_NE(old.find("\nSEQ1M Q8T1 "), std::string::npos) << old;
  EXPECT_NE(RunTable(smb).find("QD1 T1 (--qd 8 asked)"), std::string::npos) << RunTable(smb);
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

// Issue 33 item 7: a --steady run's table showed whole-run rows and the window's mean in
// a sentence, neither saying which it was. Each row now says.
TEST(SteadyTable, TheRowsSayWhichIsTheWholeRunAndWhichTheWindow) {
  RunResult r = ReadRun();
  r.job.steady.metric = SteadyRule::Metric::kBandwidth;
  r.job.steady.window_s = 2;
  r.job.steady.tolerance_pct = 5;
  r.steady = SteadyFacts{true, 3, 104.5, 1.25};
  const std::string table = RunTable(r);
  EXPECT_NE(table.find("\nread, whole run       111.10 "), std::string::npos) << table;
  EXPECT_NE(table.find("\nsteady window         104.50           -         -"), std::string::npos) << table;
  EXPECT_NE(table.find("\"whole run\" is every measured second, \"steady window\" the last 2 s"), std::string::npos)
      << table;
  // Not steady: the last window is a window, not a steady one; IOPS rules fill IOPS.
  r.job.steady.metric = SteadyRule::Metric::kIops;
  r.steady = SteadyFacts{false, 0, 96.4, 30};
  const std::string unsteady = RunTable(r);
  EXPECT_NE(unsteady.find("\nlast window                -          96         -"), std::string::npos) << unsteady;
  // Without --steady the rows are as they were.
  EXPECT_NE(RunTable(ReadRun()).find("\nread       111.10 "), std::string::npos) << RunTable(ReadRun());
}

// Issue 33 item 7: a series --repeat-until stopped printed a fixed-n 95 % interval as if n
// had been fixed. The interval now says it is the fixed-n formula after a data-dependent
// stop, and the repeat-until line says from how many repeats the rule was checked.
TEST(RepeatUntilTable, AStoppedSeriesLabelsItsIntervalAndTheMinimum) {
  RunResult r = ReadRun();
  r.job.repeat = 10;
  r.job.repeat_until_ci_pct = 5;
  for (double v : {100.0, 101.0, 99.0, 100.0, 100.5}) {
    RepeatFigures f;
    f.read_mb_per_s = v;
    r.repeats.push_back(f);
  }
  r.repeat_until_met = true;
  r.repeat_until_min_repeats = 5;
  const std::string table = RunTable(r);
  EXPECT_NE(table.find("(Student t on the mean; fixed-n formula after a data-dependent stop: wider in truth)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("after 5 repeats (checked from 5 repeats on)\n"), std::string::npos) << table;
  // A fixed --repeat series (or one that ran to its cap) keeps the plain label.
  r.repeat_until_met = false;
  EXPECT_EQ(RunTable(r).find("data-dependent"), std::string::npos) << RunTable(r);
  r.repeat_until_met.reset();
  EXPECT_NE(RunTable(r).find("MB/s (Student t on the mean); spread"), std::string::npos) << RunTable(r);
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

RunResult WriteRun() {
  RunResult r;
  r.target = "/mnt/nas";
  r.engine = "psync";
  r.job.rw = AccessPattern::kWrite;
  r.write = DirectionResult{100'000'000, 96, 0.9, 111.1, 106, {}, 0, nullptr};
  return r;
}

// Issue 33 item 5: a run's write rows said "buffered" or "direct", never whether the data
// was flushed when the clock stopped. The table says it under the rows, the quick table
// under its write columns, from the job that ran.
TEST(WriteFlushText, RunAndQuickTablesSayWhetherWritesWereFlushed) {
  RunResult r = WriteRun();
  EXPECT_NE(RunTable(r).find("\nwrites: not flushed (page cache)\n"), std::string::npos) << RunTable(r);
  r.job.fsync = true;
  EXPECT_NE(RunTable(r).find("\nwrites: flushed (fsync inside the clock)\n"), std::string::npos) << RunTable(r);
  const RunResult flushed = r;
  r.job.fsync = false;
  r.job.direct = true;
  EXPECT_EQ(WriteFlushText(r), "not flushed (O_DIRECT passes this machine's page cache, not the device's cache)");
  r.protocol = Nfs();
  EXPECT_EQ(WriteFlushText(r), "not flushed (the server's cache: --fsync flushes inside the clock)");
  // Reads, imports and app runs state nothing here (an app run says its own).
  EXPECT_EQ(WriteFlushText(ReadRun()), "");
  RunResult imported = WriteRun();
  imported.source_tool = "fio";
  EXPECT_EQ(WriteFlushText(imported), "");
  // quick: one line for the write columns when they agree, one per row when not.
  RunResult read = ReadRun();
  const std::string one = QuickTable("quick", {{"SEQ1M Q8T1", &read, &flushed}, {"SEQ1M Q1T1", &read, &flushed}});
  EXPECT_NE(one.find("\nWrite columns: flushed (fsync inside the clock)\n"), std::string::npos) << one;
  RunResult plain = WriteRun();
  const std::string two = QuickTable("quick", {{"SEQ1M Q8T1", &read, &flushed}, {"SEQ1M Q1T1", &read, &plain}});
  EXPECT_NE(two.find("\nWrite SEQ1M Q8T1: flushed (fsync inside the clock)\n"), std::string::npos) << two;
  EXPECT_NE(two.find("\nWrite SEQ1M Q1T1: not flushed (page cache)\n"), std::string::npos) << two;
}

}  // namespace
}  // namespace nasperf
