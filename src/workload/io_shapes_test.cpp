// Tests of the I/O shapes: offsets aligned and inside the region whatever the mix, the
// random share and the distribution; what a size-bound pass with a mix moves; sequential
// I/Os continuing from the previous one's end.
#include "workload/io_shapes.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

constexpr uint64_t kBase = 1 << 20;

IoRegion Region(uint64_t bytes) { return IoRegion{kBase, bytes, 11, 22, 33}; }

JobSpec MixedJob() {
  JobSpec job;
  job.rw = AccessPattern::kRandReadWrite;
  job.bs_split = {{4096, 30}, {65536, 20}, {1 << 20, 50}};
  job.bs = 1 << 20;
  return job;
}

TEST(IoShapes, PlainJobsTakeTheFixedPath) {
  JobSpec job;
  EXPECT_TRUE(UsesFixedShapes(job));
  job.rw = AccessPattern::kRandRead;
  EXPECT_TRUE(UsesFixedShapes(job));
  job.random_pct = 100;
  EXPECT_TRUE(UsesFixedShapes(job));
  job.random_pct = 50;
  EXPECT_FALSE(UsesFixedShapes(job));
  job.random_pct.reset();
  job.dist.kind = OffsetDistribution::Kind::kZipf;
  EXPECT_FALSE(UsesFixedShapes(job));
  job.dist = {};
  job.align = 4096;
  EXPECT_FALSE(UsesFixedShapes(job));
  EXPECT_FALSE(UsesFixedShapes(MixedJob()));
}

TEST(IoShapes, OffsetsStayAlignedAndInsideTheRegion) {
  const uint64_t region = (64ull << 20) + 12345;  // not a multiple of any size
  std::vector<OffsetDistribution> dists = {{},
                                           {OffsetDistribution::Kind::kZipf, 1.1, 0, 0},
                                           {OffsetDistribution::Kind::kPareto, 0.2, 0, 0},
                                           {OffsetDistribution::Kind::kHotspot, 0, 80, 20}};
  for (const OffsetDistribution& dist : dists) {
    for (uint32_t random : {0u, 30u, 100u}) {
      for (uint64_t align : {0ull, 512ull}) {
        JobSpec job = MixedJob();
        job.time_based = true;
        job.dist = dist;
        job.random_pct = random;
        job.align = align;
        const uint64_t step = align ? align : 4096;
        MixedIoShapes shapes(job, Region(region));
        IoShape io;
        for (int i = 0; i < 20000; ++i) {
          ASSERT_TRUE(shapes.Next(i % 3 ? IoDir::kRead : IoDir::kWrite, io));
          ASSERT_GE(io.offset, kBase);
          ASSERT_LE(io.offset + io.bytes, kBase + region) << ToString(dist) << " random " << random;
          ASSERT_EQ((io.offset - kBase) % step, 0u) << ToString(dist) << " random " << random;
        }
      }
    }
  }
}

TEST(IoShapes, ASizeBoundPassMovesAtMostTheRegionAndEnds) {
  const uint64_t region = 256ull << 20;
  JobSpec job = MixedJob();
  MixedIoShapes shapes(job, Region(region));
  IoShape io;
  uint64_t moved = 0, ios = 0;
  while (shapes.Next(IoDir::kRead, io)) {
    moved += io.bytes;
    ++ios;
  }
  EXPECT_LE(moved, region);
  EXPECT_GT(moved, region - (1 << 20));
  EXPECT_GT(ios, 256u);  // more I/Os than 1 MiB blocks would need: the small ones count
  // Over means over: a later call draws nothing more, even a size that would still fit.
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(shapes.Next(IoDir::kRead, io));
}

TEST(IoShapes, SequentialMixContinuesFromThePreviousEnd) {
  JobSpec job = MixedJob();
  job.rw = AccessPattern::kRead;
  const uint64_t region = 64ull << 20;
  MixedIoShapes shapes(job, Region(region));
  IoShape io;
  uint64_t expected = kBase;
  while (shapes.Next(IoDir::kRead, io)) {
    ASSERT_EQ(io.offset, expected);
    expected += io.bytes;
  }
}

TEST(IoShapes, RandomShareIsTheShareOfJumps) {
  JobSpec job = MixedJob();
  job.rw = AccessPattern::kRead;
  job.random_pct = 30;
  job.time_based = true;
  MixedIoShapes shapes(job, Region(1ull << 30));
  IoShape io;
  uint64_t end = kBase, continued = 0;
  const int ios = 100000;
  for (int i = 0; i < ios; ++i) {
    ASSERT_TRUE(shapes.Next(IoDir::kRead, io));
    continued += io.offset == end || io.offset == kBase;
    end = io.offset + io.bytes;
  }
  EXPECT_NEAR(100.0 * (ios - continued) / ios, 30.0, 1.0);
}

TEST(IoShapes, FixedPathIsTodaysOffsetGenerator) {
  JobSpec job;
  job.rw = AccessPattern::kRandRead;
  job.bs = 4096;
  FixedIoShapes shapes(job, Region(1 << 20));
  OffsetGenerator reference(true, kBase, 1 << 20, 4096, 11);
  IoShape io;
  int ios = 0;
  while (shapes.Next(IoDir::kRead, io)) {
    ASSERT_EQ(io.offset, reference.Next());
    ASSERT_EQ(io.bytes, 4096u);
    ++ios;
  }
  EXPECT_EQ(ios, 256);
}

}  // namespace
}  // namespace nasperf
