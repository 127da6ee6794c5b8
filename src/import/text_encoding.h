// Text encodings of imported files beyond UTF-8 and UTF-16: a strict UTF-8 check, and
// Shift-JIS (Windows code page 932), which the Japanese CrystalDiskMark writes in its
// Profile and Comment lines on Japanese Windows.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nasperf::import_detail {

// The offset of the first byte that does not start or continue a well-formed UTF-8
// sequence (overlong forms, surrogates and code points past U+10FFFF are not), or
// std::string_view::npos when the text is all UTF-8.
size_t InvalidUtf8At(std::string_view text);

// The text converted from CP932 to UTF-8 by the C library's iconv; nullopt when it is not
// CP932 either (or iconv lacks the code page).
std::optional<std::string> DecodeCp932(std::string_view text);

}  // namespace nasperf::import_detail
