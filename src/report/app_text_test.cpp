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
            "writes flushed (fsync inside the clock)");
  EXPECT_EQ(lines[1], "elapsed 12.50 s, 22.68 MB/s, 118.2 files/s, source 23.50 MB/s (MB/s = 10^6 B/s of payload)");
  EXPECT_TRUE(HasLine(lines, "small-file penalty: 4.25x (file-copy MB/s of the same bytes / this MB/s)"));
  EXPECT_TRUE(HasLine(lines, "operation       count    mean us     p50 us     p99 us     max us"));
  EXPECT_TRUE(HasLine(lines, "create           1477      820.2      640.0     5100.0     9000.0"));
  EXPECT_TRUE(HasLine(lines, "1       record      2390        3      0.75       91000.0"));
  EXPECT_TRUE(HasLine(lines, "volume fill during the run: 33.0 %"));
}

// Issue 33 item 5: a write-only dir-copy at page-cache speed was labelled "cache cold",
// a read-side state. A run that wrote says how its writes ended; one that read and wrote
// says both; one that only read keeps its cache state alone.
TEST(AppText, TheStateSaysHowWritesEndedAndTheCacheOnlyForReads) {
  RunResult r = AppRun();
  r.app->write_flush = kWriteFlushNone;
  r.write = DirectionResult{};
  r.write->bytes = 1000;
  EXPECT_TRUE(AppTable(r)[0].ends_with(", 8 threads, writes not flushed (page cache)")) << AppTable(r)[0];
  r.read = DirectionResult{};
  r.read->bytes = 1000;
  r.app->write_flush = kWriteFlushInClock;
  EXPECT_TRUE(AppTable(r)[0].ends_with(", 8 threads, read cache cold, writes flushed (fsync inside the clock)"))
      << AppTable(r)[0];
  r.app->write_flush = kWriteFlushSome;
  EXPECT_NE(AppTable(r)[0].find("writes partly flushed"), std::string::npos) << AppTable(r)[0];
  r.write.reset();
  r.app->write_flush = "";
  EXPECT_TRUE(AppTable(r)[0].ends_with(", 8 threads, cache cold")) << AppTable(r)[0];
  // A run stored before the flush state was recorded, with a write direction.
  r.read.reset();
  r.write = DirectionResult{};
  r.write->bytes = 1;
  EXPECT_TRUE(AppTable(r)[0].ends_with(", writes' flush not recorded")) << AppTable(r)[0];
}

// Issue 33 item 5: video printed "0.0 files/s"; a figure that does not apply is "-".
TEST(AppText, AFilesPerSecondThatDoesNotApplyIsADash) {
  RunResult r = AppRun();
  r.app->files_per_s.reset();
  r.app->source_mb_per_s.reset();
  EXPECT_EQ(AppTable(r)[1], "elapsed 12.50 s, 22.68 MB/s, - files/s (MB/s = 10^6 B/s of payload)");
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
