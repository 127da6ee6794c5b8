// DiagnosisTable: the exact lines of a populated diagnosis, and of one that measured nothing.
#include "report/diagnosis_text.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "testing/pci_nic_diagnosis.h"

namespace nasperf {
namespace {

TEST(DiagnosisTable, DrawsTheWaterfallCapCausesAndGaps) {
  Diagnosis d = testing::PciNicDiagnosis();
  d.id = 3;
  const std::vector<std::string> expected = {
      "diagnosis d3 of smb://bench@198.18.0.2/bench, 2026-12-01T18:00:00Z",
      "the link path caps the throughput: 64.2 MB/s, 51 % of 1 GbE",
      "line rate: 1000 Mbit/s = 125.0 MB/s; TCP payload max 118.7 MB/s",
      "layer       what                         MB/s  % of line rate  % of payload max",
      "client      null:, read 1M                  -          1683 %            1772 %",
      "NAS disks   2 members, read 1M, sum     240.5           192 %             203 %",
      "NAS volume  read 1M                     212.2           170 %             179 %",
      "network     down, 4 streams              64.2            51 %              54 %  cap",
      "protocol    read 1M                      61.8            49 %              52 %",
      "protocol    read 64k, buffered          410.0           328 %             345 %  cached: above the line rate: "
      "served from the client's cache",
      "NAS CPU     busiest CPU                     -               -                 -  not measured: no telemetry "
      "from the agent",
      "end to end: 61.8 MB/s (49 % of line rate); capped by: network",
      "causes:",
      "  the link path caps at 64 MB/s, 51 % of 1 GbE; disks and protocol could do more",
      "    net down, 4 streams: 64.2 MB/s",
      "    link: 1000 Mbit/s full duplex on both ends",
      "    TCP retransmits: 0.01 % of segments",
      "  the NAS's NIC sits on a 32-bit PCI bus",
      "    nas eth0: bus pci 0000:02:00.0, driver e1000",
      "not measured:",
      "  NAS CPU and interrupts: the agent sent no telemetry",
  };
  EXPECT_EQ(DiagnosisTable(d), expected);
}

// Issue 33 item 4: the summary said "an unexplained shortfall" while this line still said
// "capped by: network". The network as the lowest layer is no proven cap: the line says so.
TEST(DiagnosisTable, AnUnexplainedShortfallIsNoCapInTheEndToEndLine) {
  Diagnosis d = testing::PciNicDiagnosis();
  d.unexplained_shortfall_pct = 18.8;
  const std::vector<std::string> table = DiagnosisTable(d);
  EXPECT_NE(std::find(table.begin(), table.end(),
                      "end to end: 61.8 MB/s (49 % of line rate); capped by: not proven: the protocol is 19 % short of "
                      "the network, unexplained"),
            table.end())
      << ::testing::PrintToString(table);
}

// Issue 33 item 4: "capped by: network" beside "the NAS's CPU quota is saturated ... 31 MB/s
// write" read as a contradiction; the line names the direction its figure is.
TEST(DiagnosisTable, TheEndToEndLineNamesItsDirection) {
  Diagnosis d = testing::PciNicDiagnosis();
  d.end_to_end_direction = "read";
  const std::vector<std::string> table = DiagnosisTable(d);
  EXPECT_NE(std::find(table.begin(), table.end(), "end to end: 61.8 MB/s read (49 % of line rate); capped by: network"),
            table.end())
      << ::testing::PrintToString(table);
}

TEST(DiagnosisTable, SaysWhatWasNotMeasuredInsteadOfInventingFigures) {
  Diagnosis d;
  d.id = 5;
  d.evidence.target = "/mnt/nas";
  d.partial = true;
  d.error = "interrupted";
  d.not_measured = {"no agent: NAS disks, CPU and interrupts not measured"};
  const std::vector<std::string> expected = {
      "diagnosis d5 of /mnt/nas (partial: interrupted)",
      "line rate: not measured",
      "layer  what      MB/s  % of line rate  % of payload max",
      "(no layer measured)",
      "end to end: not measured; capped by: unknown",
      "not measured:",
      "  no agent: NAS disks, CPU and interrupts not measured",
  };
  EXPECT_EQ(DiagnosisTable(d), expected);
}

// A line rate the user stated says so: it was not read from the NICs.
TEST(DiagnosisTable, AStatedLineRateSaysSo) {
  Diagnosis d = testing::PciNicDiagnosis();
  d.line_rate_source = "stated";
  const std::vector<std::string> lines = DiagnosisTable(d);
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "line rate: 1000 Mbit/s = 125.0 MB/s (stated with --line-rate, not read from the NICs); TCP "
                      "payload max 118.7 MB/s"),
            lines.end());
}

// A row the rules left unmeasured says so once, not "not measured: not measured: ...".
TEST(DiagnosisTable, AnUnmeasuredRowSaysSoOnce) {
  Diagnosis d = testing::PciNicDiagnosis();
  WaterfallRow row;
  row.layer = "NAS disks";
  row.what = "read";
  row.note = "not measured: no agent";
  d.waterfall.push_back(row);
  for (const std::string& line : DiagnosisTable(d)) EXPECT_EQ(line.find("not measured: not measured"), std::string::npos) << line;
  const std::vector<std::string> lines = DiagnosisTable(d);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("NAS disks") == 0 && l.find("not measured: no agent") != std::string::npos;
  }));
}

}  // namespace
}  // namespace nasperf
