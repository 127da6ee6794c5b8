// Application figures in the results database (schema version 9, runs.app_json): saved,
// begun-then-finished and read back equal; absent for other runs; a damaged column named
// in a note; and a version 8 database migrated with its runs kept.
#include <gtest/gtest.h>

#include "store/results_store.h"
#include "store/schema.h"
#include "testing/app_fixture.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

RunResult AppRun(const std::string& name) {
  RunResult run;
  run.name = name;
  run.started_at = "2026-12-01T19:40:00Z";
  run.command_line = "nasperf app dir-copy --to /mnt/nas";
  run.target = "/mnt/nas";
  run.engine = "app";
  run.write = DirectionResult{283'467'841, 2950, 12.5, 22.677427, 236, {}, 0, nullptr};
  run.app = testing::FullAppFigures();
  return run;
}

int64_t NewAppInvocation(ResultsStore& store) {
  return store.BeginInvocation("app", "nasperf app dir-copy --to /mnt/nas", "2026-12-01T19:40:00Z").value();
}

TEST(AppStore, SavedFiguresReadBackEqual) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult run = AppRun("saved");
  ASSERT_TRUE(store.value().Save(run, NewAppInvocation(store.value())).ok());
  Result<RunResult> back = store.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back.value().app.has_value());
  EXPECT_EQ(*back.value().app, *run.app);
  // Listed without details too (results list, compare).
  Result<std::vector<RunResult>> all = store.value().List({});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all.value().size(), 1u);
  EXPECT_EQ(all.value()[0].app, run.app);
}

TEST(AppStore, ABegunRunGetsItsFiguresWhenFinished) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult run = AppRun("begun");
  const AppFigures figures = *run.app;
  run.app.reset();  // not known while it runs
  ASSERT_TRUE(store.value().BeginRun(run, NewAppInvocation(store.value())).ok());
  EXPECT_FALSE(store.value().Load(run.id).value().app.has_value());
  run.app = figures;
  ASSERT_TRUE(store.value().FinishRun(run).ok());
  EXPECT_EQ(store.value().Load(run.id).value().app, figures);
}

TEST(AppStore, OtherRunsHaveNoneAndDamagedFiguresAreNamed) {
  TempDir dir;
  const std::string path = dir.path() + "/results.db";
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult plain = AppRun("plain");
  plain.app.reset();
  RunResult damaged = AppRun("damaged");
  const int64_t inv = NewAppInvocation(store.value());
  ASSERT_TRUE(store.value().Save(plain, inv).ok());
  ASSERT_TRUE(store.value().Save(damaged, inv).ok());
  {
    Result<SqliteDb> raw = SqliteDb::Open(path, false);
    ASSERT_TRUE(raw.ok());
    EXPECT_EQ(raw.value().QueryInt("SELECT count(*) FROM runs WHERE app_json IS NULL").value(), 1);
    ASSERT_TRUE(raw.value().Exec("UPDATE runs SET app_json = '{\"elapsed_s\": \"x\"}' WHERE name = 'damaged'").ok());
  }
  EXPECT_FALSE(store.value().Load(plain.id).value().app.has_value());
  Result<RunResult> back = store.value().Load(damaged.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back.value().app.has_value());
  ASSERT_EQ(back.value().notes.size(), 1u);
  EXPECT_NE(back.value().notes[0].find("app.elapsed_s: expected a number"), std::string::npos) << back.value().notes[0];
}

TEST(AppStore, MigratesSchemaV8KeepingItsRuns) {
  TempDir dir;
  const std::string path = dir.path() + "/v8.db";
  const std::string fixture = testing::TestDataFile(__FILE__, "schema_v8.sql");
  {
    Result<SqliteDb> db = SqliteDb::Open(path, true);
    ASSERT_TRUE(db.ok());
    const std::string sql = testing::ReadWholeFile(fixture);
    ASSERT_FALSE(sql.empty()) << fixture;
    ASSERT_TRUE(db.value().Exec(sql).ok());
    ASSERT_EQ(db.value().QueryInt("PRAGMA user_version").value(), 8);
  }
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Result<std::vector<RunResult>> runs = store.value().List({});
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs.value().size(), 3u);
  for (const RunResult& r : runs.value()) EXPECT_FALSE(r.app.has_value()) << r.name;
  EXPECT_EQ(store.value().Load(3).value().name, "v4 agent run");
  RunResult run = AppRun("after migration");
  ASSERT_TRUE(store.value().Save(run, NewAppInvocation(store.value())).ok());
  EXPECT_EQ(run.id, 4);
  EXPECT_EQ(store.value().Load(4).value().app, AppRun("").app);
  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  EXPECT_EQ(raw.value().QueryInt("PRAGMA user_version").value(), kSchemaVersion);
  EXPECT_GE(kSchemaVersion, 9);  // later versions add columns; v8 runs still migrate
}

}  // namespace
}  // namespace nasperf
