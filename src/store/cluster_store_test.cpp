// A many-clients run's facts (RunResult::cluster) in the results database: they ride in
// job_json (like the write data facts), so no schema change; saved and read back equal.
#include <gtest/gtest.h>

#include "model/cluster_json.h"
#include "store/results_store.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

TEST(ClusterStore, RanksAndTheirFiguresReadBack) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  RunResult run;
  run.name = "four clients";
  run.started_at = "2026-12-01T23:40:00Z";
  run.target = "/mnt/nas";
  run.engine = "psync";
  run.write = DirectionResult{400'000'000, 6104, 2.0, 200, 3052, {}, 0, nullptr};
  ClusterFacts c;
  c.ranks = 2;
  c.start_skew_us = 812;
  c.window_s = 1.99;
  c.first_done_s = 2.0;
  c.last_done_s = 2.05;
  c.last_done_mb_per_s = 195;
  c.spread_pct = 12;
  c.spread_flagged = true;
  for (int r = 0; r < 2; ++r) {
    RankResult e;
    e.rank = r;
    e.host = "client" + std::to_string(r);
    e.start_offset_s = r * 0.000812;
    e.seconds = 2.0;
    e.write = DirectionResult{200'000'000, 3052, 2.0, 100 + 12.0 * r, 1526, {}, 0, nullptr};
    c.each.push_back(e);
  }
  run.cluster = c;
  ASSERT_TRUE(store.value().Save(run, store.value().BeginInvocation("run", "mpirun", run.started_at).value()).ok());
  Result<RunResult> back = store.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back.value().cluster.has_value());
  EXPECT_EQ(ClusterToJson(*back.value().cluster).dump(), ClusterToJson(c).dump());
}

}  // namespace
}  // namespace nasperf
