// IscsiTarget's protocol facts exist only once it has logged in; the facts of a logged-in
// LUN need a target, so only a lab test (tests/lab/) can check them.
#include "proto/iscsi/iscsi_target.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(IscsiTargetFacts, NoneBeforeLogin) {
  Result<ProtocolUrl> url = ParseProtocolUrl("iscsi://127.0.0.1:1/iqn.2026-11.lab.nasperf:bench/0");
  ASSERT_TRUE(url.ok()) << url.status().message();
  Result<std::unique_ptr<Target>> target = IscsiTarget::Make(url.value(), TargetOptions{});
  ASSERT_TRUE(target.ok()) << target.status().message();
  EXPECT_FALSE(target.value()->protocol_facts().has_value());
}

// Many clients on one LUN (issue 20): each rank its own disjoint region, in whole blocks.
TEST(IscsiLunRegion, EachRankItsOwnWholeBlocksAndTogetherTheLun) {
  const uint64_t lun = 512ull << 20;
  EXPECT_EQ(LunRegion("iscsi://nas/iqn/1", lun, 512, 0, 1).value(), (RankRegion{0, lun}));
  for (uint32_t ranks : {2u, 3u, 4u, 7u}) {
    uint64_t next = 0;
    for (uint32_t r = 0; r < ranks; ++r) {
      Result<RankRegion> region = LunRegion("iscsi://nas/iqn/1", lun, 512, r, ranks);
      ASSERT_TRUE(region.ok()) << region.status().message();
      EXPECT_EQ(region.value().offset_bytes, next) << r << " of " << ranks;  // abutting: disjoint, no gap
      EXPECT_EQ(region.value().offset_bytes % 4096, 0u);
      EXPECT_GT(region.value().bytes, 0u);
      next = region.value().offset_bytes + region.value().bytes;
    }
    EXPECT_LE(next, lun);
    EXPECT_GT(next, lun - 4096 * ranks);
  }
  // A block size that does not divide 4 KiB: regions still start on whole blocks.
  Result<RankRegion> odd = LunRegion("iscsi://nas/iqn/1", 1000 * 520, 520, 1, 2);
  ASSERT_TRUE(odd.ok()) << odd.status().message();
  EXPECT_EQ(odd.value().offset_bytes % 520, 0u);
  Result<RankRegion> tiny = LunRegion("iscsi://nas/iqn/1", 8192, 512, 0, 8);
  EXPECT_EQ(tiny.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(tiny.status().message().find("iscsi://nas/iqn/1"), std::string::npos) << tiny.status().message();
}

}  // namespace
}  // namespace nasperf
