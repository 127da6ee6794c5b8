// UTF-8 checking and CP932 decoding; see text_encoding.h.
#include "import/text_encoding.h"

#include <iconv.h>

#include <cerrno>

namespace nasperf::import_detail {

size_t InvalidUtf8At(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
      return i;
    }
    if (i + len > text.size()) return i;
    if (b(i + 1) < lo || b(i + 1) > hi) return i;
    for (size_t k = 2; k < len; ++k)
      if ((b(i + k) & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::optional<std::string> DecodeCp932(std::string_view text) {
  iconv_t cd = ::iconv_open("UTF-8", "CP932");
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string out(text.size() * 3 + 16, '\0');  // a CP932 byte becomes at most 3 UTF-8 bytes
  char* in = const_cast<char*>(text.data());
  size_t in_left = text.size();
  char* to = out.data();
  size_t to_left = out.size();
  const size_t done = ::iconv(cd, &in, &in_left, &to, &to_left);
  ::iconv_close(cd);
  if (done == static_cast<size_t>(-1) || in_left != 0) return std::nullopt;
  out.resize(out.size() - to_left);
  if (InvalidUtf8At(out) != std::string_view::npos) return std::nullopt;
  return out;
}

}  // namespace nasperf::import_detail
