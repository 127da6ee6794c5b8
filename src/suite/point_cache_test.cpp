// Tests of the cached mark of sweep points on every path: local, direct, network file
// system under O_DIRECT, shares, writes against the dirty limit.
#include "suite/point_cache.h"
#include "testing/sizes.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using testing::kMiB;
using testing::kGiB;

PointFacts Read(uint64_t bytes) { return {bytes, true, false, false, false}; }
PointFacts Write(uint64_t bytes) { return {bytes, false, false, false, false}; }

TEST(PointCached, BufferedReadsFitTheRam) {
  CacheRam local{16 * kGiB, std::nullopt};
  EXPECT_TRUE(PointCached(Read(8 * kGiB), local, std::nullopt));
  EXPECT_FALSE(PointCached(Read(32 * kGiB), local, std::nullopt));
  PointFacts cold = Read(1 * kGiB);
  cold.dropped_cold = true;
  EXPECT_FALSE(PointCached(cold, local, std::nullopt));
}

TEST(PointCached, DirectOnALocalDiskIsNeverCached) {
  PointFacts p = Read(64 * kMiB);
  p.direct = true;
  EXPECT_FALSE(PointCached(p, CacheRam{16 * kGiB, 1 * kGiB}, std::nullopt));
}

// `sweep --direct` on an NFS mount: O_DIRECT skips this machine's cache, not the
// server's, so points that fit the NAS's RAM stay cached.
TEST(PointCached, DirectOnANetworkFileSystemKeepsTheNasRam) {
  CacheRam nfs_direct{16 * kGiB, 1 * kGiB, false, /*client_caches=*/false};
  PointFacts small = Read(512 * kMiB), large = Read(4 * kGiB);
  small.direct = large.direct = true;
  EXPECT_TRUE(PointCached(small, nfs_direct, std::nullopt));
  EXPECT_FALSE(PointCached(large, nfs_direct, std::nullopt));
  PointFacts write = Write(512 * kMiB);
  write.direct = true;
  EXPECT_TRUE(PointCached(write, nfs_direct, 100 * kMiB)) << "the NAS's RAM takes the write";
}

// Writes stop at the dirty limit (vm.dirty_ratio of available memory), not at total RAM.
TEST(PointCached, WritesCountUpToTheDirtyLimit) {
  CacheRam local{16 * kGiB, std::nullopt};
  const uint64_t dirty = 2 * kGiB;  // 20 % of 10 GiB available
  EXPECT_TRUE(PointCached(Write(2 * kGiB), local, dirty));
  EXPECT_FALSE(PointCached(Write(4 * kGiB), local, dirty)) << "4 GiB fits the RAM but not the dirty limit";
  EXPECT_TRUE(PointCached(Write(4 * kGiB), local, std::nullopt)) << "unknown limit: the RAM bounds it";
  EXPECT_TRUE(PointCached(Write(3 * kGiB), CacheRam{16 * kGiB, 1 * kGiB}, dirty)) << "plus the NAS's RAM";
  PointFacts synced = Write(64 * kMiB);
  synced.fsync = true;
  EXPECT_FALSE(PointCached(synced, local, dirty));
}

TEST(PointCached, ASharesWritesCountOnlyTheNasRam) {
  CacheRam share{16 * kGiB, 1 * kGiB, false, false};
  EXPECT_TRUE(PointCached(Write(1 * kGiB), share, 2 * kGiB));
  EXPECT_FALSE(PointCached(Write(2 * kGiB), share, 2 * kGiB));
}

}  // namespace
}  // namespace nasperf
