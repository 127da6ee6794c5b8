// RegionOfRank: N ranks on one LUN get regions that are disjoint, aligned and together
// cover the span (to its last whole aligned block), for awkward spans and rank counts.
#include "target/rank_region.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "target/existing_target.h"
#include "testing/temp_dir.h"

namespace nasperf {
namespace {

void ExpectDisjointAlignedCover(uint64_t span, uint32_t ranks, uint64_t align) {
  uint64_t next = 0;
  for (uint32_t r = 0; r < ranks; ++r) {
    const RankRegion region = RegionOfRank(span, r, ranks, align);
    SCOPED_TRACE(std::to_string(span) + " B, rank " + std::to_string(r) + " of " + std::to_string(ranks));
    EXPECT_EQ(region.offset_bytes, next) << "a gap or an overlap with the previous rank";
    EXPECT_EQ(region.offset_bytes % align, 0u);
    EXPECT_EQ(region.bytes % align, 0u);
    next = region.offset_bytes + region.bytes;
  }
  EXPECT_EQ(next, span / align * align) << "the ranks together cover every whole aligned block";
}

TEST(RankRegion, RegionsAreDisjointAlignedAndCoverTheSpan) {
  for (uint32_t ranks : {1u, 2u, 3u, 4u, 7u, 16u, 1000u})
    for (uint64_t span : {uint64_t{16} << 20, (uint64_t{16} << 20) + 12345, uint64_t{1} << 40, uint64_t{999999999999}})
      for (uint64_t align : {uint64_t{512}, uint64_t{4096}}) ExpectDisjointAlignedCover(span, ranks, align);
  // Near 2^64: the product r * span must not overflow.
  ExpectDisjointAlignedCover(UINT64_MAX - 4095, 1000, 4096);
}

TEST(RankRegion, FourRanksOnSixteenMibGetFourMibEach) {
  for (uint32_t r = 0; r < 4; ++r)
    EXPECT_EQ(RegionOfRank(16u << 20, r, 4, 4096), (RankRegion{uint64_t{r} * (4u << 20), 4u << 20}));
  // One rank has the whole span, to its last aligned block.
  EXPECT_EQ(RegionOfRank((16u << 20) + 100, 0, 1, 4096), (RankRegion{0, 16u << 20}));
}

TEST(RankRegion, TooManyRanksForTheSpanIsOneLine) {
  Result<RankRegion> r = RankRegionOf("TARGET: /dev/x", 16 * 1024, 1, 8, 4096);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(r.status().message(), "TARGET: /dev/x: 16 KiB cannot give 8 ranks a region of at least 4 KiB each");
  EXPECT_TRUE(RankRegionOf("TARGET: /dev/x", 32 * 1024, 7, 8, 4096).ok());
}

// A 16 MiB file read by rank 2 of 4: the rank sees only [8 MiB, 12 MiB), which its two
// threads split; the same file without ranks is all one process's.
TEST(RankRegion, ExistingFileGivesEachRankItsOwnRegion) {
  testing::TempDir dir;
  const std::string path = dir.Sub("lun.img");
  {
    int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, 16 << 20), 0);
    ::close(fd);
  }
  TargetOptions options;
  options.rank = 2;
  options.ranks = 4;
  ExistingTarget shared(path, false, 16 << 20, options);
  EXPECT_EQ(shared.shared_region(), (RankRegion{8u << 20, 4u << 20}));
  EXPECT_EQ(shared.natural_size(2), 2u << 20);
  JobSpec job;
  job.bs = 65536;
  job.threads = 2;
  job.size = 2 << 20;
  ASSERT_TRUE(shared.Check(job).ok()) << shared.Check(job).message();
  Result<std::vector<WorkerFile>> files = shared.Open(job);
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files.value().size(), 2u);
  EXPECT_EQ(files.value()[0].base_offset, 8u << 20);
  EXPECT_EQ(files.value()[1].base_offset, 10u << 20);
  EXPECT_EQ(files.value()[1].region_bytes, 2u << 20);
  job.size = 4 << 20;  // 2 x 4 MiB is more than this rank's 4 MiB
  Status too_big = shared.Check(job);
  EXPECT_EQ(too_big.kind(), ErrorKind::kBadInput);
  EXPECT_NE(too_big.message().find("the 4 MiB each of 4 ranks has"), std::string::npos) << too_big.message();

  ExistingTarget alone(path, false, 16 << 20, TargetOptions{});
  EXPECT_FALSE(alone.shared_region());
  EXPECT_EQ(alone.natural_size(1), 16u << 20);

  options.ranks = 8192;  // more ranks than 4 KiB blocks
  options.rank = 0;
  ExistingTarget crowded(path, false, 16 << 20, options);
  job.size = 4096;
  job.threads = 1;
  Status refused = crowded.Check(job);
  EXPECT_EQ(refused.kind(), ErrorKind::kBadInput);
  EXPECT_NE(refused.message().find("cannot give 8192 ranks a region"), std::string::npos) << refused.message();
}

}  // namespace
}  // namespace nasperf
