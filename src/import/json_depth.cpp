// JSON nesting-depth pre-scan; see json_depth.h.
#include "import/json_depth.h"

#include <string>

namespace nasperf {

size_t JsonDepthExceededAt(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

Status CheckJsonDepth(std::string_view text, int max_depth) {
  const size_t at = JsonDepthExceededAt(text, max_depth);
  if (at == std::string_view::npos) return Status::Ok();
  return Status::BadInput("JSON nested more than " + std::to_string(max_depth) + " levels deep (at byte " +
                          std::to_string(at + 1) + ")");
}

}  // namespace nasperf
