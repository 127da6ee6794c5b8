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

class BufferPool {
 public:
  // `slots` buffers of `block_bytes` each, aligned to kBufferAlignment, filled with `pattern`.
  static Result<BufferPool> Create(uint32_t slots, uint64_t block_bytes, const BufferPattern& pattern, uint64_t seed);

  std::byte* slot(uint32_t index) const { return pointers_[index]; }
  std::vector<std::byte*>& pointers() { return pointers_; }
  uint64_t block_bytes() const { return block_bytes_; }

  // Makes a write's content unique to its offset (so dedup-capable storage cannot cheat),
  // by stamping the offset at the start of every 4 KiB. Only for the random pattern.
  void StampForWrite(uint32_t index, uint64_t offset) const {
    if (!stamp_writes_) return;
    std::byte* p = pointers_[index];
    for (uint64_t at = 0; at + sizeof(uint64_t) <= block_bytes_; at += 4096) {
      uint64_t value = offset + at;
      __builtin_memcpy(p + at, &value, sizeof value);
    }
  }

 private:
  struct FreeDeleter {
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte, FreeDeleter> memory_;
  std::vector<std::byte*> pointers_;
  uint64_t block_bytes_ = 0;
  bool stamp_writes_ = false;
};

// Fills `bytes` at `data` with a pattern; exposed for tests and file layout.
void FillPattern(std::byte* data, size_t bytes, const BufferPattern& pattern, uint64_t seed);

}  // namespace nasperf
