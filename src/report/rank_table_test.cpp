// RanksText's per-rank inventory: each rank's host, NIC, speed and MTU, "-" for what is
// unknown, and one line when no rank has a NIC in its path.
#include "report/rank_table.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

RunResult TwoRanks() {
  RunResult run;
  ClusterFacts c;
  c.ranks = 2;
  RankResult a;
  a.rank = 0;
  a.host = "client-a";
  a.nic = RankNic{"enp1s0", 10000, 9000};
  RankResult b;
  b.rank = 1;
  b.host = "client-b";
  b.nic = RankNic{"eth0", std::nullopt, 1500};
  c.each = {a, b};
  run.cluster = c;
  return run;
}

TEST(RankTable, ShowsEachRanksHostNicSpeedAndMtu) {
  const std::string text = RanksText(TwoRanks());
  EXPECT_NE(text.find("rank host                 nic                    Mb/s    MTU\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   0 client-a             enp1s0                10000   9000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   1 client-b             eth0                      -   1500\n"), std::string::npos) << text;
}

TEST(RankTable, LocalTargetsSayNoNicInOneLine) {
  RunResult run = TwoRanks();
  for (RankResult& r : run.cluster->each) r.nic.reset();
  const std::string text = RanksText(run);
  EXPECT_NE(text.find("nic: none known on any rank (a local target has no NIC in its path)\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("MTU"), std::string::npos) << text;
}

}  // namespace
}  // namespace nasperf
