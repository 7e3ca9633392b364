// Members of a schema node (or of an x-kubernetes-validations entry) read leniently: a node of the
// wrong shape is the structural checks' business, not a reason to throw here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "rr/core/json.hpp"

namespace rr::schema::detail {

// The boolean member, or false.
inline bool schema_flag(const rr::Json& node, const char* name) {
  if (!node.is_object()) return false;
  const auto it = node.find(name);
  return it != node.end() && it->is_boolean() && it->get<bool>();
}

// A size bound (maxItems, maxLength, ...), or nullopt: bounds beyond int64 (as unsigned or
// floating-point JSON) saturate rather than overflow, negative ones are 0.
inline std::optional<std::int64_t> int_member(const rr::Json& schema, const char* name) {
  if (!schema.is_object()) return std::nullopt;
  const auto it = schema.find(name);
  if (it == schema.end() || !it->is_number()) return std::nullopt;
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  if (it->is_number_unsigned()) {
    return static_cast<std::int64_t>(std::min<std::uint64_t>(it->get<std::uint64_t>(), kMax));
  }
  if (it->is_number_float()) {
    const double d = it->get<double>();
    return d > 0 ? (d < 9.2e18 ? static_cast<std::int64_t>(d) : kMax) : 0;
  }
  return std::max<std::int64_t>(0, it->get<std::int64_t>());
}

// The string member, or "".
inline std::string schema_text(const rr::Json& node, const char* name) {
  if (!node.is_object()) return {};
  const auto it = node.find(name);
  return it != node.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace rr::schema::detail
