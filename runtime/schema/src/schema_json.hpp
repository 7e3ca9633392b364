// Reading members of a schema document (JSON) the way the structural checks need them.
#pragma once
#include <string>
#include <string_view>

#include "rr/core/go_quote.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

inline const Json* member(const Json& node, std::string_view key) {
  if (!node.is_object()) return nullptr;
  auto it = node.find(key);
  return it == node.end() ? nullptr : &*it;
}

inline bool flag(const Json& node, std::string_view key) {
  const Json* v = member(node, key);
  return v && v->is_boolean() && v->get<bool>();
}

inline std::string string_member(const Json& node, std::string_view key) {
  const Json* v = member(node, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

// Go's %q of a string value, as field.Invalid shows it.
inline std::string go_quoted(std::string_view s) { return go_quote(s); }

}  // namespace rr::schema
