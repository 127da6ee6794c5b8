// I/O buffers: one aligned block per in-flight slot, filled once with the job's pattern.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

// Alignment that satisfies O_DIRECT on every device we know (and huge-page friendly).
inline constexpr size_t kBufferAlignment = 4096;

// The stamp of every 4 KiB: offset of that 4 KiB, run seed, I/O sequence number.
inline constexpr uint64_t kStampBytes = 24;
inline constexpr uint64_t kStampStrideBytes = 4096;

// Stamps the first kStampBytes of every 4 KiB of `data` (a write of `bytes` to file offset
// `offset`). Three stores per 4 KiB; a block shorter than the stamp is left as it is.
inline void StampBlock(std::byte* data, uint64_t bytes, uint64_t offset, uint64_t run_seed, uint64_t sequence) {
  for (uint64_t at = 0; at + kStampBytes <= bytes; at += kStampStrideBytes) {
    const uint64_t stamp[3] = {offset + at, run_seed, sequence};
    __builtin_memcpy(data + at, stamp, sizeof stamp);
  }
}

class BufferPool {
 public:
  // `slots` buffers of `block_bytes` each, aligned to kBufferAlignment, filled with `pattern`.
  // `for_writes` false (a job that only reads): left unfilled, since every read overwrites
  // its buffer and nothing reads one before; untouched, they cost no memory.
  static Result<BufferPool> Create(uint32_t slots, uint64_t block_bytes, const BufferPattern& pattern, uint64_t seed,
                                   bool for_writes = true);

  std::byte* slot(uint32_t index) const { return pointers_[index]; }
  std::vector<std::byte*>& pointers() { return pointers_; }
  uint64_t block_bytes() const { return block_bytes_; }

  // Makes every 4 KiB of a write unique, so that no dedupe or nop-write can serve it from
  // an earlier write: stamps its first 24 bytes with the
  // file offset of that 4 KiB, the run seed and the I/O's sequence number (fio's
  // scramble_buffers, per 4 KiB). Three stores per 4 KiB, nothing allocated. A rewrite of
  // an offset differs from the last write (sequence), a repeat from the last repeat (seed).
  // Not for the zero pattern: zeros were asked for, and are reported as such.
  void StampForWrite(uint32_t index, uint64_t offset, uint64_t run_seed, uint64_t sequence) const {
    if (stamp_writes_) StampBlock(pointers_[index], block_bytes_, offset, run_seed, sequence);
  }
  // The same for a write of `bytes` (<= block_bytes()), a smaller size of a mix: only the
  // 4 KiB it writes are stamped.
  void StampForWrite(uint32_t index, uint64_t offset, uint64_t run_seed, uint64_t sequence, uint64_t bytes) const {
    if (stamp_writes_) StampBlock(pointers_[index], bytes, offset, run_seed, sequence);
  }

 private:
  // The buffers are their own anonymous mapping: fresh pages that nothing else used, so
  // a read-only pool stays untouched (not resident) until the engine reads into it.
  struct UnmapDeleter {
    size_t bytes;  // no initializer: a nested class's one would keep unique_ptr from default-constructing it
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte, UnmapDeleter> memory_;
  std::vector<std::byte*> pointers_;
  uint64_t block_bytes_ = 0;
  bool stamp_writes_ = false;
};

// Fills `bytes` at `data` with a pattern; exposed for tests and file layout.
void FillPattern(std::byte* data, size_t bytes, const BufferPattern& pattern, uint64_t seed);

}  // namespace nasperf
