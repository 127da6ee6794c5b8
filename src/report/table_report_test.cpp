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
