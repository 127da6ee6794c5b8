// Tests for the --verify check data and the written-block map.
#include "workload/verify_data.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

namespace nasperf {
namespace {

constexpr uint64_t kPatternSeed = 0x1234'5678'9ABC'DEF0ull;

TEST(VerifyData, ABlockChecksAgainstItsOwnOffset) {
  std::vector<std::byte> block(64 * 1024);
  FillVerifyData(block.data(), block.size(), 1 << 20, kPatternSeed);
  EXPECT_EQ(FirstMismatch(block.data(), block.size(), 1 << 20, kPatternSeed), std::nullopt);
}

TEST(VerifyData, ContentDependsOnlyOnTheOffsetNotOnTheBlockSize) {
  // One 16 KiB write equals four 4 KiB writes at the matching offsets: the job's block
  // size does not matter, only where each byte lies.
  std::vector<std::byte> big(16384), small(4096);
  FillVerifyData(big.data(), big.size(), 8192, kPatternSeed);
  for (uint64_t part = 0; part < 4; ++part) {
    FillVerifyData(small.data(), small.size(), 8192 + part * 4096, kPatternSeed);
    EXPECT_EQ(0, std::memcmp(small.data(), big.data() + part * 4096, 4096)) << "part " << part;
  }
}

TEST(VerifyData, ABlockAtTheWrongOffsetFails) {
  std::vector<std::byte> block(4096);
  FillVerifyData(block.data(), block.size(), 4096, kPatternSeed);
  EXPECT_EQ(FirstMismatch(block.data(), block.size(), 8192, kPatternSeed), std::optional<uint64_t>(8192));
}

TEST(VerifyData, DataOfAnotherRunFails) {
  std::vector<std::byte> block(4096);
  FillVerifyData(block.data(), block.size(), 0, kPatternSeed);
  EXPECT_EQ(FirstMismatch(block.data(), block.size(), 0, kPatternSeed + 1), std::optional<uint64_t>(0));
}

TEST(VerifyData, OneFlippedBitIsFoundAtItsWord) {
  std::vector<std::byte> block(4096);
  FillVerifyData(block.data(), block.size(), 40960, kPatternSeed);
  block[1234] ^= std::byte{0x10};
  EXPECT_EQ(FirstMismatch(block.data(), block.size(), 40960, kPatternSeed), std::optional<uint64_t>(40960 + 1232));
}

TEST(VerifyData, ZerosAndRepeatsFail) {
  std::vector<std::byte> zeros(4096);
  EXPECT_EQ(FirstMismatch(zeros.data(), zeros.size(), 0, kPatternSeed), std::optional<uint64_t>(0));
  // Words never repeat within a block: no compressor or dedup can shrink it.
  std::vector<std::byte> block(1 << 20);
  FillVerifyData(block.data(), block.size(), 0, kPatternSeed);
  std::set<uint64_t> words;
  for (size_t i = 0; i < block.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, block.data() + i, 8);
    words.insert(w);
  }
  EXPECT_EQ(words.size(), block.size() / 8);
}

TEST(VerifyData, SeedsDiffer) { EXPECT_NE(NewVerifySeed(), NewVerifySeed()); }

TEST(WrittenBlocks, MarksAndCounts) {
  WrittenBlocks map(130);
  EXPECT_EQ(map.Count(), 0u);
  map.Mark(0);
  map.Mark(64);
  map.Mark(129);
  map.Mark(64);  // twice is once
  EXPECT_EQ(map.Count(), 3u);
  EXPECT_TRUE(map.Written(129));
  EXPECT_FALSE(map.Written(128));
  EXPECT_EQ(map.blocks(), 130u);
}

}  // namespace
}  // namespace nasperf
