// The table lines of an application run: the figures measured, each with its unit, the
// cache state as checked ("not checked" when it was not), the op and stream tables.
#include "report/app_text.h"

#include <gtest/gtest.h>

#include "report/table_report.h"
#include "testing/app_fixture.h"

namespace nasperf {
namespace {

RunResult AppRun() {
  RunResult r;
  r.name = "dir-copy";
  r.engine = "app";
  r.app = testing::FullAppFigures();
  return r;
}

bool HasLine(const std::vector<std::string>& lines, const std::string& want) {
  for (const std::string& l : lines)
    if (l == want) return true;
  return false;
}

TEST(AppText, ShowsTheFiguresWithUnits) {
  std::vector<std::string> lines = AppTable(AppRun());
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "dir-copy from generated:win7-system to smb://bench@198.18.0.2/bench: 1477 files, 270.3 MiB, 8 threads, "
            "cache cold");
  EXPECT_EQ(lines[1], "elapsed 12.50 s, 22.68 MB/s, 118.2 files/s, source 23.50 MB/s (MB/s = 10^6 B/s of payload)");
  EXPECT_TRUE(HasLine(lines, "small-file penalty: 4.25x (file-copy MB/s of the same bytes / this MB/s)"));
  EXPECT_TRUE(HasLine(lines, "operation       count    mean us     p50 us     p99 us     max us"));
  EXPECT_TRUE(HasLine(lines, "create           1477      820.2      640.0     5100.0     9000.0"));
  EXPECT_TRUE(HasLine(lines, "1       record      2390        3      0.75       91000.0"));
  EXPECT_TRUE(HasLine(lines, "volume fill during the run: 33.0 %"));
}

TEST(AppText, UncheckedCacheSaysSoAndAbsentFiguresAreNotPrinted) {
  RunResult r;
  r.app = AppFigures{};
  r.app->workload = "file-copy";
  r.app->files = 1;
  r.partial = true;
  std::vector<std::string> lines = AppTable(r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("cache not checked  [PARTIAL]"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].find("source"), std::string::npos) << lines[1];
}

TEST(AppText, RunTableShowsAnAppRunAsItsTable) {
  RunResult r = AppRun();
  r.notes = {"caches dropped on the client only"};
  const std::string table = RunTable(r);
  EXPECT_EQ(table.rfind(AppTable(r)[0] + "\n", 0), 0u) << table;
  EXPECT_NE(table.find("note: caches dropped on the client only\n"), std::string::npos) << table;
  EXPECT_TRUE(AppTable(RunResult{}).empty());
}

}  // namespace
}  // namespace nasperf
