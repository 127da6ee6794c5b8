// Tests that offsets stay aligned and inside the region, and that a random pass visits
// every block exactly once.
#include "workload/offsets.h"

#include <gtest/gtest.h>

#include <vector>

namespace nasperf {
namespace {

TEST(BlockPermutation, IsABijectionForAwkwardSizes) {
  for (uint64_t n : {1ull, 2ull, 3ull, 7ull, 64ull, 1000ull, 4097ull, 65536ull, 100003ull}) {
    BlockPermutation p(n, 42);
    std::vector<bool> seen(n, false);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t v = p.Map(i);
      ASSERT_LT(v, n);
      ASSERT_FALSE(seen[v]) << "n=" << n << " value " << v << " twice";
      seen[v] = true;
    }
  }
}

TEST(BlockPermutation, LooksShuffled) {
  BlockPermutation p(1 << 16, 7);
  uint64_t in_place = 0, ascending = 0;
  for (uint64_t i = 0; i + 1 < (1 << 16); ++i) {
    in_place += p.Map(i) == i;
    ascending += p.Map(i + 1) == p.Map(i) + 1;
  }
  EXPECT_LT(in_place, 20u);
  EXPECT_LT(ascending, 20u);
}

TEST(OffsetGenerator, SequentialWrapsAfterOnePass) {
  OffsetGenerator g(false, 4096, 4 * 8192, 8192, 1);
  EXPECT_EQ(g.blocks(), 4u);
  std::vector<uint64_t> got;
  for (int i = 0; i < 6; ++i) got.push_back(g.Next());
  EXPECT_EQ(got, (std::vector<uint64_t>{4096, 4096 + 8192, 4096 + 16384, 4096 + 24576, 4096, 4096 + 8192}));
}

TEST(OffsetGenerator, RandomPassCoversEveryBlockOnceThenReshuffles) {
  const uint64_t bs = 4096, blocks = 1000;
  OffsetGenerator g(true, 0, blocks * bs + 100, bs, 3);  // the ragged tail is never touched
  std::vector<int> hits(blocks, 0);
  std::vector<uint64_t> first;
  for (uint64_t i = 0; i < blocks; ++i) {
    uint64_t off = g.Next();
    ASSERT_EQ(off % bs, 0u);
    ASSERT_LT(off / bs, blocks);
    ++hits[off / bs];
    first.push_back(off);
  }
  for (int h : hits) EXPECT_EQ(h, 1);
  std::vector<uint64_t> second;
  for (uint64_t i = 0; i < blocks; ++i) second.push_back(g.Next());
  EXPECT_NE(first, second);
}

TEST(FastRandom, BelowStaysInRange) {
  FastRandom r(1);
  uint64_t counts[4] = {};
  for (int i = 0; i < 40000; ++i) {
    uint64_t v = r.Below(4);
    ASSERT_LT(v, 4u);
    ++counts[v];
  }
  for (uint64_t c : counts) EXPECT_NEAR(static_cast<double>(c), 10000.0, 600.0);
}

}  // namespace
}  // namespace nasperf
