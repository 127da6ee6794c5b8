// ParseBoundedJson: JSON from untrusted bytes (network frames, imported files) with a
// nesting limit checked before any tree is built, so no input can exhaust the stack.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "nasperf/status.h"

namespace nasperf {

// Nesting deeper than any document nasperf writes, and far below what a recursive walk
// (dump, copy, comparison) of nlohmann::json can survive on a thread's stack.
inline constexpr int kDefaultMaxJsonDepth = 64;

// Parses `text` as one JSON value. A text nested more than `max_depth` arrays/objects
// deep is refused by a linear pre-scan (no recursion, no allocation) before nlohmann
// sees it. Errors are BadInput, one line naming `what`: "WHAT: nested deeper than 64
// levels (at byte 65)" or "WHAT: not valid JSON". Never throws. Thread-safe.
Result<nlohmann::json> ParseBoundedJson(std::string_view text, int max_depth = kDefaultMaxJsonDepth,
                                        std::string_view what = "JSON");

// The pre-scan alone: the byte offset where `text` first opens level max_depth + 1, or
// std::string_view::npos when it never does. Brackets inside strings do not count.
size_t FindJsonTooDeep(std::string_view text, int max_depth);

}  // namespace nasperf
