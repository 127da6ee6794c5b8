// BufferPool allocation and pattern filling.
#include "workload/buffers.h"

#include <cstdlib>
#include <cstring>

#include "base/units.h"
#include "workload/offsets.h"

namespace nasperf {

void BufferPool::FreeDeleter::operator()(std::byte* p) const { std::free(p); }

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
  void* memory = nullptr;
  if (posix_memalign(&memory, kBufferAlignment, stride * slots) != 0)
    return Status::Unavailable("cannot allocate " + FormatSize(stride * slots) + " of I/O buffers");
  pool.memory_.reset(static_cast<std::byte*>(memory));
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
