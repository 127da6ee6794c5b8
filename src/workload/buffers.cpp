// BufferPool allocation and pattern filling.
#include "workload/buffers.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "base/units.h"
#include "workload/offsets.h"

namespace nasperf {

void BufferPool::UnmapDeleter::operator()(std::byte* p) const { munmap(p, bytes); }

void FillPattern(std::byte* data, size_t bytes, const BufferPattern& pattern, uint64_t seed) {
  if (pattern.kind == BufferPattern::Kind::kZero) {
    std::memset(data, 0, bytes);
    return;
  }
  FastRandom random(seed);
  // compressible:N zeroes the last N % of every 4 KiB chunk, as fio's
  // buffer_compress_percentage does, so a compressor sees the same ratio at any block size.
  const size_t chunk = 4096;
  const size_t zero_pct = pattern.kind == BufferPattern::Kind::kCompressible ? pattern.compressible_pct : 0;
  for (size_t at = 0; at < bytes; at += chunk) {
    size_t len = bytes - at < chunk ? bytes - at : chunk;
    size_t random_len = len - len * zero_pct / 100;
    size_t i = 0;
    for (; i + 8 <= random_len; i += 8) {
      uint64_t v = random.Next();
      std::memcpy(data + at + i, &v, 8);
    }
    for (; i < random_len; ++i) data[at + i] = static_cast<std::byte>(random.Next());
    std::memset(data + at + random_len, 0, len - random_len);
  }
}

Result<BufferPool> BufferPool::Create(uint32_t slots, uint64_t block_bytes, const BufferPattern& pattern,
                                      uint64_t seed, bool for_writes) {
  BufferPool pool;
  // Round each slot up so every slot starts aligned.
  uint64_t stride = (block_bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  // Not malloc: after a large free glibc raises its mmap threshold and serves the next
  // large block from the heap, whose pages an earlier user left resident and dirty.
  const size_t bytes = stride * slots;
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    return Status::Unavailable("cannot allocate " + FormatSize(bytes) + " of I/O buffers");
  pool.memory_ = std::unique_ptr<std::byte, UnmapDeleter>(static_cast<std::byte*>(memory), UnmapDeleter{bytes});
  pool.block_bytes_ = block_bytes;
  pool.stamp_writes_ = pattern.kind != BufferPattern::Kind::kZero;
  pool.pointers_.resize(slots);
  for (uint32_t i = 0; i < slots; ++i) {
    pool.pointers_[i] = pool.memory_.get() + stride * i;
    if (for_writes) FillPattern(pool.pointers_[i], block_bytes, pattern, seed * 1000003 + i);
  }
  return pool;
}

}  // namespace nasperf
