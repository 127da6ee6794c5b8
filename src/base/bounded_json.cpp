// The depth pre-scan and the bounded parse.
#include "base/bounded_json.h"

#include <string>

namespace nasperf {

size_t FindJsonTooDeep(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if (c == ']' || c == '}') {
      // Unbalanced closers are the parser's to refuse; they must not buy extra depth.
      if (depth > 0) --depth;
    }
  }
  return std::string_view::npos;
}

Result<nlohmann::json> ParseBoundedJson(std::string_view text, int max_depth, std::string_view what) {
  if (size_t at = FindJsonTooDeep(text, max_depth); at != std::string_view::npos)
    return Status::BadInput(std::string(what) + ": nested deeper than " + std::to_string(max_depth) +
                            " levels (at byte " + std::to_string(at) + ")");
  nlohmann::json value = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return Status::BadInput(std::string(what) + ": not valid JSON");
  return value;
}

}  // namespace nasperf
