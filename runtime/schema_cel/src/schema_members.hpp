// Members of a schema node (or of an x-kubernetes-validations entry) read leniently: a node of the
// wrong shape is the structural checks' business, not a reason to throw here.
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace rr::schema::detail {

// The boolean member, or false.
inline bool schema_flag(const rr::Json& node, const char* name) {
  if (!node.is_object()) return false;
  const auto it = node.find(name);
  return it != node.end() && it->is_boolean() && it->get<bool>();
}

// The string member, or "".
inline std::string schema_text(const rr::Json& node, const char* name) {
  if (!node.is_object()) return {};
  const auto it = node.find(name);
  return it != node.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace rr::schema::detail
