// Tests of the sweep table's cache analysis lines: outliers are printed under the
// knee's line.
#include "report/sweep_report.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(SweepTable, PrintsOutliersUnderTheKnee) {
  SweepSummary s;
  s.target = "/mnt/nas";
  s.sizes = {64 << 10};
  s.records = {64 << 10};
  s.tests = {"read"};
  s.ram.client_bytes = 1ull << 30;
  SweepCurve c;
  c.test = "read";
  c.record_bytes = 64 << 10;
  c.analysis.knee_bytes = 512ull << 20;
  c.analysis.outliers = {256 << 10, 8 << 20};
  c.analysis.verdict = "knee at 512 MiB; client RAM 1 GiB; this curve is cache-bound below it";
  s.curves.push_back(c);
  const std::string table = SweepTable(s, {});
  EXPECT_NE(table.find("knee at 512 MiB"), std::string::npos) << table;
  EXPECT_NE(table.find("outliers: 256 KiB, 8 MiB (off their plateau"), std::string::npos) << table;

  s.curves[0].analysis.outliers.clear();
  EXPECT_EQ(SweepTable(s, {}).find("outliers"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
