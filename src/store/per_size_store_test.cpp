// Per-size figures of a block-size mix in the results database (schema version 10,
// runs.per_size_json): saved and read back equal, begun-then-finished too; absent for a
// plain run; a damaged column named in a note rather than dropped.
#include <gtest/gtest.h>

#include "store/results_store.h"
#include "store/schema.h"
#include "store/sqlite.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

RunResult MixedRun(const std::string& name) {
  RunResult run;
  run.name = name;
  run.started_at = "2026-12-01T23:40:00Z";
  run.command_line = "nasperf run /mnt/nas --bs 4k/50:64k/50";
  run.target = "/mnt/nas";
  run.engine = "psync";
  run.job.rw = AccessPattern::kWrite;
  run.job.bs = 65536;
  run.job.bs_split = {{4096, 50}, {65536, 50}};
  run.write = DirectionResult{4096 * 100 + 65536 * 90, 190, 1.0, 6.3, 190, {5, 4, 8, 9, 10, 11}, 0, nullptr};
  run.per_size = {
      SizeResult{4096, std::nullopt, DirectionResult{4096 * 100, 100, 1.0, 0.41, 100, {3, 2, 4, 5, 6, 7}, 0, nullptr}},
      SizeResult{65536, std::nullopt, DirectionResult{65536 * 90, 90, 1.0, 5.9, 90, {7, 6, 8, 9, 10, 11}, 0, nullptr}}};
  return run;
}

int64_t NewRunInvocation(ResultsStore& store) {
  return store.BeginInvocation("run", "nasperf run /mnt/nas", "2026-12-01T23:40:00Z").value();
}

void ExpectSameSizes(const std::vector<SizeResult>& got, const std::vector<SizeResult>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].bs, want[i].bs);
    ASSERT_EQ(got[i].write.has_value(), want[i].write.has_value());
    EXPECT_FALSE(got[i].read.has_value());
    EXPECT_EQ(got[i].write->bytes, want[i].write->bytes);
    EXPECT_EQ(got[i].write->ios, want[i].write->ios);
    EXPECT_EQ(got[i].write->lat.p99_us, want[i].write->lat.p99_us);
  }
}

TEST(PerSizeStore, SavedFiguresReadBackEqual) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult run = MixedRun("saved");
  ASSERT_TRUE(store.value().Save(run, NewRunInvocation(store.value())).ok());
  Result<RunResult> back = store.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameSizes(back.value().per_size, run.per_size);
  Result<std::vector<RunResult>> all = store.value().List({});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all.value().size(), 1u);
  ExpectSameSizes(all.value()[0].per_size, run.per_size);
}

TEST(PerSizeStore, ABegunRunGetsItsSizesWhenFinished) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult run = MixedRun("begun");
  const std::vector<SizeResult> sizes = run.per_size;
  run.per_size.clear();
  ASSERT_TRUE(store.value().BeginRun(run, NewRunInvocation(store.value())).ok());
  EXPECT_TRUE(store.value().Load(run.id).value().per_size.empty());
  run.per_size = sizes;
  ASSERT_TRUE(store.value().FinishRun(run).ok());
  ExpectSameSizes(store.value().Load(run.id).value().per_size, sizes);
}

TEST(PerSizeStore, PlainRunsHaveNoneAndDamagedSizesAreNamed) {
  TempDir dir;
  const std::string path = dir.path() + "/results.db";
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult plain = MixedRun("plain");
  plain.per_size.clear();
  plain.job.bs_split.clear();
  ASSERT_TRUE(store.value().Save(plain, NewRunInvocation(store.value())).ok());
  EXPECT_TRUE(store.value().Load(plain.id).value().per_size.empty());
  RunResult mixed = MixedRun("damaged");
  ASSERT_TRUE(store.value().Save(mixed, NewRunInvocation(store.value())).ok());
  {
    Result<SqliteDb> raw = SqliteDb::Open(path, false);
    ASSERT_TRUE(raw.ok());
    ASSERT_TRUE(raw.value()
                    .Exec("UPDATE runs SET per_size_json = '[{\"bs\": -1}]' WHERE id = " + std::to_string(mixed.id))
                    .ok());
  }
  Result<RunResult> back = store.value().Load(mixed.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back.value().per_size.empty());
  bool named = false;
  for (const std::string& note : back.value().notes) named = named || note.find("per-size") != std::string::npos;
  EXPECT_TRUE(named) << "no note names the damaged per-size figures";
  EXPECT_GE(kSchemaVersion, 10);
}

}  // namespace
}  // namespace nasperf
