// ClusterToJson / ClusterFromJson: each rank's host and NIC (name, speed, MTU) come back
// as written, unknown figures stay unknown, and a malformed NIC is one clear error.
#include "model/cluster_json.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

ClusterFacts TwoRanks() {
  ClusterFacts f;
  f.ranks = 2;
  RankResult a;
  a.rank = 0;
  a.host = "client-a";
  a.nic = RankNic{"enp1s0", 25000, 9000};
  RankResult b;
  b.rank = 1;
  b.host = "client-b";
  b.nic = RankNic{"eth0", std::nullopt, 1500};
  b.region = RankRegion{8u << 20, 8u << 20};
  RankResult c;
  c.rank = 2;
  c.host = "client-c";  // a local target: no NIC in its path
  f.each = {a, b, c};
  return f;
}

TEST(ClusterJson, EachRanksNicRoundTrips) {
  const ClusterFacts in = TwoRanks();
  const nlohmann::ordered_json j = ClusterToJson(in);
  EXPECT_EQ(j["each"][0]["nic"]["name"], "enp1s0");
  EXPECT_EQ(j["each"][0]["nic"]["speed_mbps"], 25000);
  EXPECT_EQ(j["each"][0]["nic"]["mtu"], 9000);
  EXPECT_TRUE(j["each"][1]["nic"]["speed_mbps"].is_null());
  EXPECT_FALSE(j["each"][2].contains("nic"));
  Result<ClusterFacts> out = ClusterFromJson(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out.value().each.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(out.value().each[i].nic, in.each[i].nic) << i;
  EXPECT_EQ(out.value().each[1].host, "client-b");
  EXPECT_EQ(out.value().each[1].region, (RankRegion{8u << 20, 8u << 20}));
  EXPECT_FALSE(out.value().each[0].region);
  EXPECT_EQ(j["each"][1]["region"]["offset_bytes"], 8u << 20);
}

TEST(ClusterJson, MalformedNicIsOneClearError) {
  for (const char* bad : {R"("eth0")", R"({"mtu":1500})", R"({"name":3})", R"({"name":"eth0","mtu":"9000"})"}) {
    nlohmann::json j = nlohmann::json::parse(ClusterToJson(TwoRanks()).dump());
    j["each"][1]["nic"] = nlohmann::json::parse(bad);
    Result<ClusterFacts> out = ClusterFromJson(j);
    ASSERT_FALSE(out.ok()) << bad;
    EXPECT_EQ(out.status().kind(), ErrorKind::kBadInput);
    EXPECT_TRUE(out.status().message().starts_with("cluster.each[1].nic")) << out.status().message();
  }
}


// Issue 33 item 6: each rank's own seed and cold-read check come back as written; a rank
// without them has none.
TEST(ClusterJson, EachRanksSeedAndColdReadCheckRoundTrip) {
  ClusterFacts in = TwoRanks();
  in.each[0].seed = 18446744073709551557ull;
  in.each[0].cached = false;
  in.each[0].cold_read = "page cache dropped ...; mincore found at most 0.0 % of the 8 MiB still cached";
  in.each[1].seed = 7;
  in.each[1].cached = true;
  Result<ClusterFacts> out = ClusterFromJson(nlohmann::json::parse(ClusterToJson(in).dump()));
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out.value().each[0].seed, in.each[0].seed);
  EXPECT_EQ(out.value().each[0].cached, false);
  EXPECT_EQ(out.value().each[0].cold_read, in.each[0].cold_read);
  EXPECT_EQ(out.value().each[1].seed, 7u);
  EXPECT_EQ(out.value().each[1].cached, true);
  EXPECT_FALSE(out.value().each[2].seed);
  EXPECT_FALSE(out.value().each[2].cached);
  nlohmann::json bad = nlohmann::json::parse(ClusterToJson(in).dump());
  bad["each"][1]["seed"] = "seven";
  Result<ClusterFacts> refused = ClusterFromJson(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "cluster.each[1].seed: expected a whole number");
}

}  // namespace
}  // namespace nasperf
