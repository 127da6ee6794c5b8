// The bytes of a generated dataset (issue 18: tree gen, dir-copy, backup, video, office):
// file N's content at offset O is a pure function of the dataset's seed, so any helper can
// stage it, regenerate it and --verify it piecewise, and a streaming SHA-256 digest of a
// dataset's names, sizes and contents that records exactly what was staged.
//
// Every 4 KiB block of every file is unique across the whole dataset and across datasets:
// its first 32 bytes are a stamp (a magic word, the seed, the file's index, the block's
// index), the rest splitmix64 words keyed by all three. So no block is all zeros, no
// compressor or dedupe can shortcut one, and no two blocks are equal.
#pragma once

#include <nettle/sha2.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nasperf {

// Bytes per unique block, and the stamp at the start of each: {magic, seed, file, block}.
inline constexpr uint64_t kDatasetBlockBytes = 4096;
inline constexpr uint64_t kDatasetStampBytes = 32;
// "nasptree" in little-endian ASCII: nonzero, and recognisable in a hex dump.
inline constexpr uint64_t kDatasetMagic = 0x65657274'7073616eull;

// Fills `bytes` at `data` with file `file_index`'s content from file offset `offset`, of the
// dataset seeded `seed`. Any offset and length (unaligned too); allocates nothing, so it is
// fit for the staging and --verify hot paths. A file of size S holds the first S bytes of its
// stream (the last block is cut short).
void FillDatasetBytes(std::byte* data, size_t bytes, uint64_t seed, uint64_t file_index, uint64_t offset);

// The file offset of the first byte of `data` (read from `offset` of file `file_index`) that
// is not the dataset's content; nullopt when all are. Allocates nothing.
std::optional<uint64_t> FirstDatasetMismatch(const std::byte* data, size_t bytes, uint64_t seed, uint64_t file_index,
                                             uint64_t offset);

// SHA-256 (Nettle) of a dataset, fed in the order its plan lists entries (a TreePlan: every
// directory in plan order, then every file in plan order, each file's content after it). What is hashed, so that any tool
// can reproduce it: per directory "D" path "\0"; per file "F" path "\0" and its size as 8
// little-endian bytes, then exactly that many content bytes. Paths are '/'-separated and
// relative to the dataset's root. Not thread-safe; one per stream.
class DatasetDigest {
 public:
  DatasetDigest();
  void AddDir(std::string_view path);
  // Starts a file: its `size_bytes` content bytes are passed to Update next.
  void AddFile(std::string_view path, uint64_t size_bytes);
  void Update(const void* data, size_t bytes);
  // Hashes a generated file's content: generates it `scratch_bytes` at a time into `scratch`.
  // `stop` (when given) is asked between chunks; true ends the hashing early: false back.
  bool UpdateGenerated(uint64_t seed, uint64_t file_index, uint64_t size_bytes, std::byte* scratch,
                       size_t scratch_bytes, bool (*stop)() = nullptr);
  // "sha256:" and 64 lower-case hex digits. The digest is finished; call once.
  std::string Finish();

 private:
  sha256_ctx ctx_;
};

}  // namespace nasperf
