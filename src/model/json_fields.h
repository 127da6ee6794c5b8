// Small pieces every JSON codec of model/ shares: an optional as a value or null
// (base/json_or_null.h), a list of strings, a value quoted in an error line.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/json_or_null.h"

namespace nasperf {

inline nlohmann::ordered_json StringsJson(const std::vector<std::string>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const std::string& v : values) out.push_back(v);
  return out;
}

// A value quoted in an error line: on one line, never throwing, at most `max` characters.
template <typename Json>
std::string QuotedJson(const Json& value, size_t max = 60) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  return text.size() > max ? text.substr(0, max - 3) + "..." : text;
}

}  // namespace nasperf
