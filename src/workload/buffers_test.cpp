// Tests for buffer alignment and fill patterns.
#include "workload/buffers.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace nasperf {
namespace {

size_t ZeroBytes(const std::byte* p, size_t n) {
  size_t zeros = 0;
  for (size_t i = 0; i < n; ++i) zeros += p[i] == std::byte{0};
  return zeros;
}

TEST(BufferPool, SlotsAreAlignedAndDistinct) {
  BufferPattern random;
  Result<BufferPool> pool = BufferPool::Create(4, 1000, random, 1);
  ASSERT_TRUE(pool.ok());
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(reinterpret_cast<uintptr_t>(pool.value().slot(i)) % kBufferAlignment, 0u);
  EXPECT_NE(std::memcmp(pool.value().slot(0), pool.value().slot(1), 1000), 0);
}

// Pages of `bytes` at `p` that are in memory, from mincore over the whole pages inside it.
size_t ResidentPages(const std::byte* p, size_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) / page * page;
  std::vector<unsigned char> in_core((end - begin) / page);
  if (mincore(reinterpret_cast<void*>(begin), end - begin, in_core.data()) != 0) return SIZE_MAX;
  size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1;
  return resident;
}

// A read job's buffers are written by its reads before anything reads them: they are not
// filled, so a large block costs no memory until the I/O touches it (`run null:` at 1 MiB).
TEST(BufferPool, AReadOnlyPoolIsLeftUntouched) {
  const uint64_t block = 8 << 20;
  Result<BufferPool> reads = BufferPool::Create(1, block, BufferPattern{}, 1, false);
  ASSERT_TRUE(reads.ok());
  // An allocator may touch a page of its own at the start (ASan's does): the megabytes stay
  // untouched, which is what matters (a filled pool has every page resident).
  const size_t pages = block / sysconf(_SC_PAGESIZE);
  EXPECT_LE(ResidentPages(reads.value().slot(0), block), pages / 100);
  Result<BufferPool> writes = BufferPool::Create(1, block, BufferPattern{}, 1, true);
  ASSERT_TRUE(writes.ok());
  EXPECT_EQ(ResidentPages(writes.value().slot(0), block), pages);
}

TEST(FillPattern, ZeroRandomAndCompressible) {
  std::vector<std::byte> buf(64 * 1024);
  FillPattern(buf.data(), buf.size(), BufferPattern{BufferPattern::Kind::kZero, 0}, 1);
  EXPECT_EQ(ZeroBytes(buf.data(), buf.size()), buf.size());

  FillPattern(buf.data(), buf.size(), BufferPattern{}, 1);
  EXPECT_LT(ZeroBytes(buf.data(), buf.size()), buf.size() / 100);

  FillPattern(buf.data(), buf.size(), BufferPattern{BufferPattern::Kind::kCompressible, 60}, 1);
  double zero_share = static_cast<double>(ZeroBytes(buf.data(), buf.size())) / buf.size();
  EXPECT_NEAR(zero_share, 0.60, 0.01);
}

TEST(BufferPool, StampMakesEvery4KiBDifferByOffsetSeedAndSequence) {
  for (const char* text : {"random", "compressible:50", "compressible:100"}) {
    Result<BufferPool> pool = BufferPool::Create(1, 8192, ParseBufferPattern(text).value(), 1);
    ASSERT_TRUE(pool.ok());
    auto stamped = [&](uint64_t offset, uint64_t seed, uint64_t sequence) {
      pool.value().StampForWrite(0, offset, seed, sequence);
      return std::vector<std::byte>(pool.value().slot(0), pool.value().slot(0) + 8192);
    };
    const std::vector<std::byte> base = stamped(0, 7, 1);
    EXPECT_NE(base, stamped(8192, 7, 1)) << text << ": another offset";
    EXPECT_NE(base, stamped(0, 8, 1)) << text << ": another run's seed";
    EXPECT_NE(base, stamped(0, 7, 2)) << text << ": a rewrite of the same offset";
    EXPECT_EQ(base, stamped(0, 7, 1)) << text << ": the stamp is all that changes";
    EXPECT_NE(std::memcmp(base.data(), base.data() + 4096, 4096), 0) << text << ": the two 4 KiB halves";
  }
}

TEST(BufferPool, ZeroIsLeftUnstamped) {
  Result<BufferPool> pool = BufferPool::Create(1, 8192, BufferPattern{BufferPattern::Kind::kZero, 0}, 1);
  ASSERT_TRUE(pool.ok());
  pool.value().StampForWrite(0, 4096, 7, 3);
  EXPECT_EQ(ZeroBytes(pool.value().slot(0), 8192), 8192u);
}

TEST(BufferPool, CompressibleKeepsItsZerosUnderTheStamp) {
  Result<BufferPool> pool = BufferPool::Create(1, 65536, BufferPattern{BufferPattern::Kind::kCompressible, 50}, 1);
  ASSERT_TRUE(pool.ok());
  pool.value().StampForWrite(0, 0, 7, 3);
  double zero_share = static_cast<double>(ZeroBytes(pool.value().slot(0), 65536)) / 65536;
  EXPECT_NEAR(zero_share, 0.50, 0.01);
}

}  // namespace
}  // namespace nasperf
