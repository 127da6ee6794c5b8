// Tests for buffer alignment and fill patterns.
#include "workload/buffers.h"

#include <gtest/gtest.h>

#include <cstring>

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

TEST(BufferPool, StampMakesWritesDifferPerOffset) {
  Result<BufferPool> pool = BufferPool::Create(1, 8192, BufferPattern{}, 1);
  ASSERT_TRUE(pool.ok());
  pool.value().StampForWrite(0, 0);
  std::vector<std::byte> first(pool.value().slot(0), pool.value().slot(0) + 8192);
  pool.value().StampForWrite(0, 8192);
  EXPECT_NE(std::memcmp(first.data(), pool.value().slot(0), 8192), 0);
}

}  // namespace
}  // namespace nasperf
