// Small pieces every JSON codec of model/ shares: an optional as a value or null, a list of
// strings, a value quoted in an error line.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nasperf {

template <typename T>
nlohmann::ordered_json OrNullJson(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

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
