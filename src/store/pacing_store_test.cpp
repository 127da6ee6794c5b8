// A paced run's pacing facts are kept by the results database (inside job_json, like the
// write data facts: no column, no migration) and come back as they were saved.
#include <gtest/gtest.h>

#include "model/pacing_json.h"
#include "store/results_store.h"
#include "testing/temp_dir.h"

namespace nasperf {
namespace {

TEST(PacingStore, PacingFactsComeBackAsSaved) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult run;
  run.name = "paced";
  run.started_at = "2026-12-01T22:00:00Z";
  run.engine = "psync";
  run.job.rw = AccessPattern::kRandRead;
  run.job.bs = 4096;
  run.job.pacing.rate_iops = 5000;
  run.read.emplace();
  run.read->bytes = 4096 * 3120;
  run.read->ios = 3120;
  run.read->seconds = 1;
  run.read->mb_per_s = 12.78;
  run.read->iops = 3120;
  PacingFacts facts;
  facts.target_iops = 5000;
  facts.achieved_iops = 3120;
  facts.sustained = false;
  facts.shortfall_pct = 37.6;
  facts.read_service = LatencySummary{320, 318, 330, 340, 900, 10000};
  run.pacing = facts;
  Result<int64_t> inv = store.value().BeginInvocation("run", "nasperf run", run.started_at);
  ASSERT_TRUE(inv.ok()) << inv.status().message();
  ASSERT_TRUE(store.value().Save(run, inv.value()).ok());
  Result<RunResult> back = store.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back.value().pacing);
  EXPECT_EQ(PacingToJson(*back.value().pacing, 1).dump(), PacingToJson(facts, 1).dump());
  EXPECT_DOUBLE_EQ(back.value().job.pacing.rate_iops, 5000);
  EXPECT_TRUE(back.value().notes.empty());
}

}  // namespace
}  // namespace nasperf
