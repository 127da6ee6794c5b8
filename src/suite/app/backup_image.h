// The image format of `nasperf app backup|restore`: one sequential stream of tar-like
// 512-byte headers, each followed by its entry's content padded to 512 bytes, ended by an
// end header. With --image-ratio R a file's content is stored as ceil(size / R) bytes,
// modelling a compressing backup tool (the bytes written are the dataset's own, cut short).
//
// Header (little-endian): "NASPIMG1", type ('D' directory, 'F' file, 'E' end), 7 zero
// bytes, size_bytes (8: the source file's size), stored_bytes (8: its content in the
// image), path length (2), the path ('/'-separated, relative), zeros to 512.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

inline constexpr size_t kImageBlockBytes = 512;
inline constexpr size_t kImagePathOffset = 34;
inline constexpr size_t kImageMaxPathBytes = kImageBlockBytes - kImagePathOffset;

enum class ImageEntryType : char { kDir = 'D', kFile = 'F', kEnd = 'E' };

struct ImageHeader {
  ImageEntryType type = ImageEntryType::kEnd;
  std::string path;
  uint64_t size_bytes = 0;
  uint64_t stored_bytes = 0;
};

// Content bytes an entry of `size_bytes` takes in an image of ratio `ratio` (>= 1).
uint64_t StoredBytes(uint64_t size_bytes, double ratio);
// Rounded up to the next 512.
inline uint64_t PaddedBytes(uint64_t bytes) {
  return (bytes + kImageBlockBytes - 1) / kImageBlockBytes * kImageBlockBytes;
}

// Writes the header into `block` (kImageBlockBytes). BadInput when the path is too long.
Status EncodeImageHeader(const ImageHeader& h, std::byte* block);
// Reads one; BadInput naming what is wrong (magic, type, path length) for a damaged image.
Result<ImageHeader> DecodeImageHeader(const std::byte* block);

}  // namespace nasperf
