// FlattenInventory: the inventory as dotted keys and printable values, for `results compare`.
#include "report/inventory_text.h"

namespace nasperf {

using nlohmann::ordered_json;

namespace {

std::string Printable(const ordered_json& value) {
  if (value.is_null()) return "unknown";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  return value.dump();
}

bool IsPlain(const ordered_json& value) { return !value.is_object() && !value.is_array(); }

void Flatten(const ordered_json& value, const std::string& key, std::vector<std::pair<std::string, std::string>>* out) {
  if (value.is_object()) {
    if (value.empty()) {
      out->emplace_back(key, "none");
      return;
    }
    for (const auto& [name, child] : value.items()) Flatten(child, key.empty() ? name : key + "." + name, out);
    return;
  }
  if (value.is_array()) {
    if (value.empty()) {
      out->emplace_back(key, "none");
      return;
    }
    bool plain = true;
    for (const ordered_json& element : value) plain = plain && IsPlain(element);
    if (plain) {
      std::string joined;
      for (const ordered_json& element : value) joined += (joined.empty() ? "" : ", ") + Printable(element);
      out->emplace_back(key, joined);
      return;
    }
    for (size_t i = 0; i < value.size(); ++i) Flatten(value[i], key + "[" + std::to_string(i) + "]", out);
    return;
  }
  out->emplace_back(key, Printable(value));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> FlattenInventory(const nlohmann::ordered_json& inventory) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!inventory.is_object()) return out;
  for (const auto& [name, child] : inventory.items()) Flatten(child, name, &out);
  return out;
}

}  // namespace nasperf
