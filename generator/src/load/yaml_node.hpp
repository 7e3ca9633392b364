// A YAML (or JSON) document as a tree of located nodes. Every later stage reports positions from
// here, so each node carries its file:line:col.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen {

struct Node {
  enum class Kind : std::uint8_t { Scalar, Sequence, Mapping };
  Kind kind = Kind::Scalar;
  bool plain = true;  // scalar written without quotes (so `true`, `3`, `null` are not strings)
  Location location;
  std::string text;                // scalar value
  std::vector<std::string> keys;   // mapping keys, parallel to children
  std::vector<Location> key_locations;
  std::vector<Node> children;      // sequence items or mapping values

  bool is_mapping() const noexcept { return kind == Kind::Mapping; }
  bool is_sequence() const noexcept { return kind == Kind::Sequence; }
  bool is_scalar() const noexcept { return kind == Kind::Scalar; }
  // Plain `null`, `~` or empty scalar (YAML 1.2 core schema).
  bool is_null() const noexcept;
  const Node* find(std::string_view key) const noexcept;
  Location key_location(std::string_view key) const noexcept;
};

// Scalar resolution per the YAML 1.2 core schema, as Kubernetes' YAML→JSON conversion sees it.
enum class ScalarType { Null, Bool, Int, Float, String };
ScalarType resolve_scalar(const Node& n) noexcept;

// Canonical, compact JSON text of a node (keys in document order). Used for defaults, enum values
// and anything embedded into generated code.
std::string to_json_text(const Node& n);
// Human description of a node kind for messages: "a mapping", "a sequence", "a string"...
std::string describe(const Node& n);

}  // namespace rrgen
