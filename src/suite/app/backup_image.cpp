// The backup image's header codec.
#include "suite/app/backup_image.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace nasperf {
namespace {

constexpr char kMagic[8] = {'N', 'A', 'S', 'P', 'I', 'M', 'G', '1'};

void PutLe(std::byte* at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) at[i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
}
uint64_t GetLe(const std::byte* at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(at[i]) << (8 * i);
  return v;
}

}  // namespace

uint64_t StoredBytes(uint64_t size_bytes, double ratio) {
  if (ratio <= 1) return size_bytes;
  return static_cast<uint64_t>(std::ceil(static_cast<double>(size_bytes) / ratio));
}

Status EncodeImageHeader(const ImageHeader& h, std::byte* block) {
  if (h.path.size() > kImageMaxPathBytes)
    return Status::BadInput(
        fmt::format("{}: a path longer than {} bytes does not fit the image header", h.path, kImageMaxPathBytes));
  std::memset(block, 0, kImageBlockBytes);
  std::memcpy(block, kMagic, sizeof kMagic);
  block[8] = static_cast<std::byte>(h.type);
  PutLe(block + 16, h.size_bytes, 8);
  PutLe(block + 24, h.stored_bytes, 8);
  PutLe(block + 32, h.path.size(), 2);
  std::memcpy(block + kImagePathOffset, h.path.data(), h.path.size());
  return Status::Ok();
}

Result<ImageHeader> DecodeImageHeader(const std::byte* block) {
  if (std::memcmp(block, kMagic, sizeof kMagic) != 0)
    return Status::BadInput("backup image: a header without its magic");
  ImageHeader h;
  const char type = static_cast<char>(block[8]);
  if (type != 'D' && type != 'F' && type != 'E')
    return Status::BadInput(fmt::format("backup image: unknown entry type 0x{:02X}", static_cast<unsigned char>(type)));
  h.type = static_cast<ImageEntryType>(type);
  h.size_bytes = GetLe(block + 16, 8);
  h.stored_bytes = GetLe(block + 24, 8);
  const uint64_t path_bytes = GetLe(block + 32, 2);
  if (path_bytes > kImageMaxPathBytes) return Status::BadInput("backup image: a path length past the header");
  if (h.stored_bytes > h.size_bytes) return Status::BadInput("backup image: stored bytes above the entry's size");
  h.path.assign(reinterpret_cast<const char*>(block + kImagePathOffset), path_bytes);
  return h;
}

}  // namespace nasperf
