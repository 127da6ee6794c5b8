// AlignedBuffer: a byte buffer on a page boundary, allocated once before a clock starts.
//
// A plain 1 MiB std::vector lands 16 bytes past a page (glibc's mmap chunk header), and
// every copy between it and the page cache then runs unaligned: a buffered file-copy from
// tmpfs measured about 5 % slower than cp's page-aligned buffer for that alone.
// O_DIRECT needs the alignment outright.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>

namespace nasperf {

class AlignedBuffer {
 public:
  static constexpr size_t kPage = 4096;
  // `bytes` rounded up to whole pages (aligned_alloc's rule); size() is `bytes`.
  explicit AlignedBuffer(size_t bytes)
      : data_(static_cast<unsigned char*>(std::aligned_alloc(kPage, RoundUp(bytes)))), size_(bytes) {
    if (!data_) throw std::bad_alloc();
  }
  unsigned char* data() const { return data_.get(); }
  std::byte* bytes() const { return reinterpret_cast<std::byte*>(data_.get()); }
  size_t size() const { return size_; }
  std::span<unsigned char> span() const { return {data_.get(), size_}; }

 private:
  static size_t RoundUp(size_t bytes) { return (bytes == 0 ? kPage : (bytes + kPage - 1) / kPage * kPage); }
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  std::unique_ptr<unsigned char, Free> data_;
  size_t size_;
};

}  // namespace nasperf
