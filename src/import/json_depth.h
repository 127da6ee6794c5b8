// A linear pre-scan of JSON text for its nesting depth, run before nlohmann parses it:
// the parser copes with any depth, but copying, dumping and converting a parsed value
// recurse once per level, and 100,000 levels overflow the stack.
#pragma once

#include <cstddef>
#include <string_view>

#include "nasperf/status.h"

namespace nasperf {

// Deep enough for every document nasperf and the tools it imports write (fio's is 6).
constexpr int kMaxJsonDepth = 64;

// The byte offset of the first '[' or '{' that opens level max_depth + 1 (outside
// strings, escapes honoured), or std::string_view::npos when the text stays within it.
// One pass, no recursion, no allocation; the text need not be valid JSON.
size_t JsonDepthExceededAt(std::string_view text, int max_depth);

// BadInput "JSON nested more than <max_depth> levels deep (at byte N)" when it is.
Status CheckJsonDepth(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace nasperf
