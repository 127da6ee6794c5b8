// Tests for the write data facts: zstd's ratio on a stamped sample block, per pattern.
#include "workload/data_sample.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

DataFacts Facts(const std::string& pattern, uint64_t bs, bool verify = false) {
  return DescribeWriteData(ParseBufferPattern(pattern).value(), verify, bs, 77);
}

TEST(DataSample, CompressibleFiftyCompressesAboutTwoToOne) {
  for (uint64_t bs : {4096ull, 65536ull, 4ull << 20}) {
    DataFacts f = Facts("compressible:50", bs);
    EXPECT_GT(f.compress_ratio, 1.8) << bs;
    EXPECT_LT(f.compress_ratio, 2.2) << bs;
    EXPECT_EQ(f.sample_bytes, std::min<uint64_t>(bs, kMaxCompressSampleBytes));
  }
  DataFacts quarter = Facts("compressible:75", 65536);
  EXPECT_GT(quarter.compress_ratio, 3.5);
  EXPECT_LT(quarter.compress_ratio, 4.5);
}

TEST(DataSample, RandomAndVerifyDataDoNotCompress) {
  for (const DataFacts& f : {Facts("random", 65536), Facts("random", 65536, true)}) {
    EXPECT_GT(f.compress_ratio, 0.95) << f.pattern;
    EXPECT_LT(f.compress_ratio, 1.05) << f.pattern;
    EXPECT_TRUE(f.unique_blocks);
  }
  EXPECT_EQ(Facts("random", 4096, true).pattern, "verify");
}

TEST(DataSample, ZerosAreReportedAsZerosThatCompressAway) {
  DataFacts f = Facts("zero", 65536);
  EXPECT_EQ(f.pattern, "zero");
  EXPECT_FALSE(f.unique_blocks);
  EXPECT_GT(f.compress_ratio, 100);
}

}  // namespace
}  // namespace nasperf
