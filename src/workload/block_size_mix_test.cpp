// Tests that a block-size mix draws each size at its weight and that the plan lists the
// sizes in the mixes' order, per direction.
#include "workload/block_size_mix.h"

#include <gtest/gtest.h>

#include <map>

namespace nasperf {
namespace {

TEST(BlockSizeMix, DrawsEachSizeAtItsWeight) {
  JobSpec job;
  job.bs_split = {{4096, 30}, {65536, 20}, {1 << 20, 50}};
  job.bs = 1 << 20;
  BlockSizePlan plan = PlanBlockSizes(job);
  BlockSizeMix mix(plan.read, plan);
  FastRandom random(3);
  std::map<uint32_t, int> counts;
  std::map<uint32_t, int> index;
  for (int i = 0; i < 100000; ++i) {
    BlockSizeMix::Pick pick = mix.Draw(random);
    ++counts[pick.bytes];
    index[pick.bytes] = pick.size_index;
  }
  EXPECT_NEAR(counts[4096], 30000, 1000);
  EXPECT_NEAR(counts[65536], 20000, 1000);
  EXPECT_NEAR(counts[1 << 20], 50000, 1000);
  EXPECT_EQ(counts.size(), 3u);
  EXPECT_EQ(index[4096], 0);
  EXPECT_EQ(index[65536], 1);
  EXPECT_EQ(index[1 << 20], 2);
}

TEST(BlockSizeMix, PlanWithoutAMixIsTheBlockSize) {
  JobSpec job;
  job.bs = 8192;
  BlockSizePlan plan = PlanBlockSizes(job);
  EXPECT_EQ(plan.sizes, std::vector<uint64_t>{8192});
  EXPECT_EQ(plan.read, (std::vector<BlockSizeShare>{{8192, 100}}));
  EXPECT_EQ(AlignmentBytes(job), 8192u);
  EXPECT_EQ(LargestBlockBytes(job), 8192u);
}

TEST(BlockSizeMix, PerDirectionMixesAddTheirSizesAfterTheSharedOnes) {
  JobSpec job;
  job.rw = AccessPattern::kRandReadWrite;
  job.bs_split = {{65536, 50}, {4096, 50}};
  job.bs_write = {{4096, 10}, {1 << 20, 90}};
  BlockSizePlan plan = PlanBlockSizes(job);
  EXPECT_EQ(plan.sizes, (std::vector<uint64_t>{65536, 4096, 1 << 20}));
  EXPECT_EQ(plan.read, job.bs_split);
  EXPECT_EQ(plan.write, job.bs_write);
  EXPECT_EQ(AlignmentBytes(job), 4096u);
  job.align = 512;
  EXPECT_EQ(AlignmentBytes(job), 512u);
  // A read-only job lists only what it reads.
  job.rw = AccessPattern::kRead;
  job.bs_split.clear();
  job.bs_read = {{16384, 100}};
  EXPECT_EQ(PlanBlockSizes(job).sizes, std::vector<uint64_t>{16384});
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

TEST(BlockSizeMixText, ParsesFiosBssplitOrderAndPrintsItBack) {
  Result<std::vector<BlockSizeShare>> mix = ParseBlockSizeMix("4k/30:64k/20:1m/50", "--bs");
  ASSERT_TRUE(mix.ok()) << mix.status().message();
  EXPECT_EQ(mix.value(), (std::vector<BlockSizeShare>{{4096, 30}, {65536, 20}, {1 << 20, 50}}));
  EXPECT_EQ(BlockSizeMixText(mix.value()), "4k/30:64k/20:1m/50");
  EXPECT_TRUE(CheckBlockSizeMix(mix.value(), "--bs").ok());
  // A plain size is no mix.
  ASSERT_TRUE(ParseBlockSizeMix("4k", "--bs").ok());
  EXPECT_TRUE(ParseBlockSizeMix("4k", "--bs").value().empty());
  EXPECT_EQ(BlockSizeMixText(std::vector<BlockSizeShare>{{512, 100}}), "512/100");
}

TEST(BlockSizeMixText, RefusesWhatIsNotAMixNamingTheOption) {
  for (const char* text : {"4k/", "/50", "4k/50:", "4k/50::64k/50", "4k/x", "4q/100", "4k/1000"}) {
    Result<std::vector<BlockSizeShare>> mix = ParseBlockSizeMix(text, "--bs-read");
    ASSERT_FALSE(mix.ok()) << text;
    EXPECT_EQ(mix.status().message().rfind("--bs-read: '", 0), 0u) << mix.status().message();
  }
  std::string many;
  for (int i = 1; i <= 17; ++i) many += (i > 1 ? ":" : "") + std::to_string(i) + "k/1";
  EXPECT_FALSE(ParseBlockSizeMix(many, "--bs").ok());
  EXPECT_NE(CheckBlockSizeMix(std::vector<BlockSizeShare>{{4096, 30}, {8192, 20}}, "--bs").message().find("sum to 50"),
            std::string::npos);
  EXPECT_FALSE(CheckBlockSizeMix(std::vector<BlockSizeShare>{{0, 100}}, "--bs").ok());
  EXPECT_FALSE(CheckBlockSizeMix(std::vector<BlockSizeShare>{{(1ull << 30) + 1, 100}}, "--bs").ok());
}

TEST(BlockSizeMix, SettlingKeepsWhatEachDirectionRuns) {
  // --rw randrw --bs 4k --bs-read 64k: the writes still run 4 KiB once bs is the largest.
  JobSpec job;
  job.rw = AccessPattern::kRandReadWrite;
  job.bs = 4096;
  job.bs_read = {{65536, 100}};
  SettleBlockSizes(job);
  EXPECT_EQ(job.bs, 65536u);
  EXPECT_EQ(PlanBlockSizes(job).write, (std::vector<BlockSizeShare>{{4096, 100}}));
  EXPECT_EQ(PlanBlockSizes(job).read, (std::vector<BlockSizeShare>{{65536, 100}}));
  // A read job with its own read mix uses no plain size at all.
  JobSpec reads;
  reads.bs_read = {{4096, 50}, {8192, 50}};
  SettleBlockSizes(reads);
  EXPECT_EQ(reads.bs, 8192u);
  EXPECT_TRUE(reads.bs_split.empty());
  EXPECT_EQ(PlanBlockSizes(reads).sizes, (std::vector<uint64_t>{4096, 8192}));
  // No mix: nothing changes.
  JobSpec plain;
  SettleBlockSizes(plain);
  EXPECT_EQ(plain.bs, JobSpec{}.bs);
}

}  // namespace
}  // namespace nasperf
