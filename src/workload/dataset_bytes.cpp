// Dataset content: a stamp and splitmix64 words per 4 KiB block; the dataset digest.
#include "workload/dataset_bytes.h"

#include <algorithm>
#include <cstring>

#include "workload/run_seed.h"

namespace nasperf {
namespace {

constexpr uint64_t kWordsPerBlock = kDatasetBlockBytes / 8;

// One key per block: every word of the block beyond the stamp derives from it, so a block
// depends on the seed, the file and its index, and neighbours are unrelated.
inline uint64_t BlockKey(uint64_t seed, uint64_t file_index, uint64_t block) {
  return SplitMix64(SplitMix64(SplitMix64(seed ^ kDatasetMagic) + file_index) + block);
}

// Word `word` (0..511) of a block whose key is `key`.
inline uint64_t BlockWord(uint64_t key, uint64_t seed, uint64_t file_index, uint64_t block, uint64_t word) {
  switch (word) {
    case 0:
      return kDatasetMagic;
    case 1:
      return seed;
    case 2:
      return file_index;
    case 3:
      return block;
    default:
      return SplitMix64(key + word * 0x9E3779B97F4A7C15ull);
  }
}

// Calls `emit(pos_in_data, word_value, first_byte_in_word, byte_count)` for each word
// (whole or partial) that covers [offset, offset + bytes) of the file's stream.
template <typename Emit>
inline void ForEachWord(size_t bytes, uint64_t seed, uint64_t file_index, uint64_t offset, Emit emit) {
  size_t done = 0;
  while (done < bytes) {
    const uint64_t pos = offset + done;
    const uint64_t block = pos / kDatasetBlockBytes;
    const uint64_t key = BlockKey(seed, file_index, block);
    uint64_t word = (pos % kDatasetBlockBytes) / 8;
    uint64_t in_word = pos % 8;
    for (; word < kWordsPerBlock && done < bytes; ++word) {
      const uint64_t value = BlockWord(key, seed, file_index, block, word);
      const size_t take = static_cast<size_t>(std::min<uint64_t>(8 - in_word, bytes - done));
      if (!emit(done, value, in_word, take)) return;
      done += take;
      in_word = 0;
    }
  }
}

}  // namespace

void FillDatasetBytes(std::byte* data, size_t bytes, uint64_t seed, uint64_t file_index, uint64_t offset) {
  size_t done = 0;
  while (done < bytes) {
    const uint64_t pos = offset + done;
    const uint64_t block = pos / kDatasetBlockBytes;
    if (pos % kDatasetBlockBytes == 0 && bytes - done >= kDatasetBlockBytes) {
      // A whole block, the common case (staging writes 1 MiB requests): straight-line words,
      // no per-word branch, so generating costs less than hashing or writing it.
      const uint64_t key = BlockKey(seed, file_index, block);
      const uint64_t stamp[4] = {kDatasetMagic, seed, file_index, block};
      std::memcpy(data + done, stamp, sizeof stamp);
      for (uint64_t word = 4; word < kWordsPerBlock; ++word) {
        const uint64_t value = SplitMix64(key + word * 0x9E3779B97F4A7C15ull);
        std::memcpy(data + done + word * 8, &value, 8);
      }
      done += kDatasetBlockBytes;
      continue;
    }
    // Part of a block (an unaligned start or the end of a file): word by word.
    const size_t take =
        static_cast<size_t>(std::min<uint64_t>(bytes - done, kDatasetBlockBytes - pos % kDatasetBlockBytes));
    std::byte* out = data + done;
    ForEachWord(take, seed, file_index, pos, [out](size_t at, uint64_t value, uint64_t from, size_t n) {
      std::byte word[8];
      std::memcpy(word, &value, 8);  // little-endian hosts only, like the rest of nasperf's stamps
      std::memcpy(out + at, word + from, n);
      return true;
    });
    done += take;
  }
}

std::optional<uint64_t> FirstDatasetMismatch(const std::byte* data, size_t bytes, uint64_t seed, uint64_t file_index,
                                             uint64_t offset) {
  std::optional<uint64_t> mismatch;
  ForEachWord(bytes, seed, file_index, offset, [&](size_t at, uint64_t value, uint64_t from, size_t take) {
    std::byte word[8];
    std::memcpy(word, &value, 8);
    if (std::memcmp(data + at, word + from, take) == 0) return true;
    for (size_t i = 0; i < take; ++i)
      if (data[at + i] != word[from + i]) {
        mismatch = offset + at + i;
        break;
      }
    return false;
  });
  return mismatch;
}

DatasetDigest::DatasetDigest() { sha256_init(&ctx_); }

void DatasetDigest::AddDir(std::string_view path) {
  sha256_update(&ctx_, 1, reinterpret_cast<const uint8_t*>("D"));
  sha256_update(&ctx_, path.size(), reinterpret_cast<const uint8_t*>(path.data()));
  sha256_update(&ctx_, 1, reinterpret_cast<const uint8_t*>(""));  // the terminating NUL
}

void DatasetDigest::AddFile(std::string_view path, uint64_t size_bytes) {
  sha256_update(&ctx_, 1, reinterpret_cast<const uint8_t*>("F"));
  sha256_update(&ctx_, path.size(), reinterpret_cast<const uint8_t*>(path.data()));
  uint8_t size_le[9] = {0};  // the NUL, then the size
  for (int i = 0; i < 8; ++i) size_le[1 + i] = static_cast<uint8_t>(size_bytes >> (8 * i));
  sha256_update(&ctx_, sizeof size_le, size_le);
}

void DatasetDigest::Update(const void* data, size_t bytes) {
  sha256_update(&ctx_, bytes, static_cast<const uint8_t*>(data));
}

bool DatasetDigest::UpdateGenerated(uint64_t seed, uint64_t file_index, uint64_t size_bytes, std::byte* scratch,
                                    size_t scratch_bytes, bool (*stop)()) {
  for (uint64_t at = 0; at < size_bytes;) {
    if (stop && stop()) return false;
    const size_t take = static_cast<size_t>(std::min<uint64_t>(scratch_bytes, size_bytes - at));
    FillDatasetBytes(scratch, take, seed, file_index, at);
    Update(scratch, take);
    at += take;
  }
  return true;
}

std::string DatasetDigest::Finish() {
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx_, sizeof digest, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (uint8_t b : digest) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

}  // namespace nasperf
