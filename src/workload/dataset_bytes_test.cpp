// Tests for dataset content (unique, non-zero, piecewise equal) and the dataset digest.
#include "workload/dataset_bytes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace nasperf {
namespace {

constexpr uint64_t kDatasetSeed = 0x0123'4567'89AB'CDEFull & ((uint64_t{1} << 53) - 1);

std::vector<std::byte> Content(uint64_t seed, uint64_t file, uint64_t offset, size_t bytes) {
  std::vector<std::byte> out(bytes);
  FillDatasetBytes(out.data(), bytes, seed, file, offset);
  return out;
}

TEST(DatasetBytes, EveryBlockIsUniqueAcrossFilesAndSeeds) {
  std::set<std::string> blocks;
  size_t made = 0;
  for (uint64_t seed : {kDatasetSeed, kDatasetSeed + 1})
    for (uint64_t file = 0; file < 16; ++file) {
      auto data = Content(seed, file, 0, 8 * kDatasetBlockBytes);
      for (size_t b = 0; b < 8; ++b, ++made)
        blocks.emplace(reinterpret_cast<const char*>(data.data()) + b * kDatasetBlockBytes, kDatasetBlockBytes);
    }
  EXPECT_EQ(blocks.size(), made);
}

TEST(DatasetBytes, BeyondTheStampBlocksDifferToo) {
  // Two blocks whose stamps differ but whose random part matched would still dedupe at a
  // sub-block granularity: the payload must depend on the block too.
  auto a = Content(kDatasetSeed, 3, 0, kDatasetBlockBytes);
  auto b = Content(kDatasetSeed, 3, kDatasetBlockBytes, kDatasetBlockBytes);
  auto c = Content(kDatasetSeed, 4, 0, kDatasetBlockBytes);
  const size_t rest = kDatasetBlockBytes - kDatasetStampBytes;
  EXPECT_NE(0, std::memcmp(a.data() + kDatasetStampBytes, b.data() + kDatasetStampBytes, rest));
  EXPECT_NE(0, std::memcmp(a.data() + kDatasetStampBytes, c.data() + kDatasetStampBytes, rest));
}

TEST(DatasetBytes, StampNamesSeedFileAndBlock) {
  auto data = Content(kDatasetSeed, 77, 5 * kDatasetBlockBytes, kDatasetBlockBytes);
  uint64_t stamp[4];
  std::memcpy(stamp, data.data(), sizeof stamp);
  EXPECT_EQ(stamp[0], kDatasetMagic);
  EXPECT_EQ(stamp[1], kDatasetSeed);
  EXPECT_EQ(stamp[2], 77u);
  EXPECT_EQ(stamp[3], 5u);
}

TEST(DatasetBytes, NoBlockIsAllZerosEvenWithSeedZero) {
  auto data = Content(0, 0, 0, 4 * kDatasetBlockBytes);
  for (size_t b = 0; b < 4; ++b) {
    bool all_zero = true;
    for (size_t i = 0; i < kDatasetBlockBytes; ++i) all_zero &= data[b * kDatasetBlockBytes + i] == std::byte{0};
    EXPECT_FALSE(all_zero) << "block " << b;
  }
}

TEST(DatasetBytes, AnyPieceEqualsTheSameRangeOfTheWhole) {
  // Staging writes 1 MiB requests, --verify reads what it reads: content depends only on
  // where a byte lies, whatever the offset and length (unaligned included).
  const size_t total = 3 * kDatasetBlockBytes + 100;
  auto whole = Content(kDatasetSeed, 9, 0, total);
  for (uint64_t offset : {0ull, 1ull, 7ull, 8ull, 31ull, 4095ull, 4096ull, 5000ull, 12000ull})
    for (size_t len : {size_t{1}, size_t{3}, size_t{9}, size_t{4096}, size_t{4097}, total - offset}) {
      if (offset + len > total) continue;
      auto piece = Content(kDatasetSeed, 9, offset, len);
      EXPECT_EQ(0, std::memcmp(piece.data(), whole.data() + offset, len)) << offset << "+" << len;
    }
}

TEST(DatasetBytes, FirstMismatchFindsTheFlippedByte) {
  auto data = Content(kDatasetSeed, 2, 12345, 10000);
  EXPECT_EQ(FirstDatasetMismatch(data.data(), data.size(), kDatasetSeed, 2, 12345), std::nullopt);
  data[4321] ^= std::byte{0x10};
  EXPECT_EQ(FirstDatasetMismatch(data.data(), data.size(), kDatasetSeed, 2, 12345), 12345u + 4321u);
  // Another file's or another seed's content is not this file's.
  auto other = Content(kDatasetSeed, 3, 12345, 10000);
  EXPECT_NE(FirstDatasetMismatch(other.data(), other.size(), kDatasetSeed, 2, 12345), std::nullopt);
  auto reseeded = Content(kDatasetSeed + 1, 2, 12345, 10000);
  EXPECT_NE(FirstDatasetMismatch(reseeded.data(), reseeded.size(), kDatasetSeed, 2, 12345), std::nullopt);
}

TEST(DatasetDigest, EmptyDigestIsSha256OfNothing) {
  DatasetDigest digest;
  EXPECT_EQ(digest.Finish(), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(DatasetDigest, HashesTheDocumentedFraming) {
  // "D" "a" NUL, "F" "a/b" NUL, size 3 (LE64), "xyz": the same bytes fed raw give the same digest.
  DatasetDigest framed;
  framed.AddDir("a");
  framed.AddFile("a/b", 3);
  framed.Update("xyz", 3);
  const char raw[] = "Da\0Fa/b\0\x03\0\0\0\0\0\0\0xyz";
  DatasetDigest flat;
  flat.Update(raw, sizeof raw - 1);
  EXPECT_EQ(framed.Finish(), flat.Finish());
}

TEST(DatasetDigest, NamesSizesAndContentsEachChangeIt) {
  std::vector<std::byte> scratch(1000);
  auto digest_of = [&](const char* name, uint64_t size, uint64_t seed) {
    DatasetDigest d;
    d.AddDir("top");
    d.AddFile(name, size);
    d.UpdateGenerated(seed, 0, size, scratch.data(), scratch.size());
    return d.Finish();
  };
  const std::string base = digest_of("top/f", 5000, kDatasetSeed);
  EXPECT_EQ(base, digest_of("top/f", 5000, kDatasetSeed));
  EXPECT_NE(base, digest_of("top/g", 5000, kDatasetSeed));
  EXPECT_NE(base, digest_of("top/f", 5001, kDatasetSeed));
  EXPECT_NE(base, digest_of("top/f", 5000, kDatasetSeed + 1));
}

TEST(DatasetDigest, GeneratedEqualsFedContent) {
  // Hashing while staging (content fed as written) and hashing from the seed agree,
  // whatever the scratch size.
  auto content = Content(kDatasetSeed, 4, 0, 9999);
  DatasetDigest fed, generated;
  fed.AddFile("x", content.size());
  fed.Update(content.data(), content.size());
  std::vector<std::byte> scratch(777);
  generated.AddFile("x", content.size());
  generated.UpdateGenerated(kDatasetSeed, 4, content.size(), scratch.data(), scratch.size());
  EXPECT_EQ(fed.Finish(), generated.Finish());
}

}  // namespace
}  // namespace nasperf
