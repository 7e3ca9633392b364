// Reading an object's members as the API server's lenient paths do: a member that is missing or of
// another type reads as empty.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

inline std::string member_string(const Json& object, std::string_view key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The strings of an array member (other items skipped).
inline std::vector<std::string> member_strings(const Json& object, std::string_view key) {
  std::vector<std::string> out;
  if (!object.is_object()) return out;
  if (auto it = object.find(key); it != object.end() && it->is_array()) {
    for (const Json& value : *it) {
      if (value.is_string()) out.push_back(value.get<std::string>());
    }
  }
  return out;
}

// metadata.<key> ("name", "namespace", "resourceVersion" ...).
inline std::string meta_string(const Json& object, std::string_view key) {
  if (!object.is_object()) return {};
  auto meta = object.find("metadata");
  return meta != object.end() ? member_string(*meta, key) : std::string();
}

}  // namespace rr::apiserver_detail
