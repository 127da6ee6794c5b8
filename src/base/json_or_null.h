// An optional as its JSON value, or null when it holds none: how every codec (model/,
// sysinfo's telemetry, report/) writes a figure that may not have been measured.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace nasperf {

template <typename T>
nlohmann::ordered_json OrNullJson(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace nasperf
