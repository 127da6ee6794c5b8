// DescribeWriteData: one sample block through zstd.
#include "workload/data_sample.h"

#include <zstd.h>

#include <algorithm>
#include <vector>

#include "workload/buffers.h"
#include "workload/run_seed.h"
#include "workload/verify_data.h"

namespace nasperf {

double ZstdRatio(const std::byte* data, uint64_t bytes) {
  if (bytes == 0) return 0;
  std::vector<char> out(ZSTD_compressBound(bytes));
  size_t n = ZSTD_compress(out.data(), out.size(), data, bytes, ZSTD_CLEVEL_DEFAULT);
  if (ZSTD_isError(n) || n == 0) return 0;
  return static_cast<double>(bytes) / static_cast<double>(n);
}

DataFacts DescribeWriteData(const BufferPattern& pattern, bool verify, uint64_t block_bytes, uint64_t run_seed) {
  DataFacts facts;
  facts.sample_bytes = std::min(block_bytes, kMaxCompressSampleBytes);
  std::vector<std::byte> sample(facts.sample_bytes - facts.sample_bytes % 8 + 8);
  if (verify) {
    facts.pattern = "verify";
    facts.unique_blocks = true;  // keyed to each 8-byte word's offset and a fresh seed
    FillVerifyData(sample.data(), sample.size(), 0, run_seed | 1);
  } else {
    facts.pattern = ToString(pattern);
    facts.unique_blocks = pattern.kind != BufferPattern::Kind::kZero;
    FillPattern(sample.data(), facts.sample_bytes, pattern, StreamSeed(run_seed, SeedStream::kBuffers, 0));
    if (facts.unique_blocks) StampBlock(sample.data(), facts.sample_bytes, 0, run_seed, 0);
  }
  facts.compress_ratio = ZstdRatio(sample.data(), facts.sample_bytes);
  return facts;
}

}  // namespace nasperf
