// What the readers of the spec's sections share: typed values, and the messages of a wrong type
// or an unknown key in the spec reader's words ([spec-wrong-type], [spec-unknown-key]).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// 'text', as every spec message quotes a name or value.
std::string spec_quote(std::string_view s);

class SpecValues {
 public:
  explicit SpecValues(Diagnostics& diags) : diags_(diags) {}

  // "'what' must be <expected>, not a mapping"
  void wrong_type(const Node& n, std::string_view what, std::string_view expected);
  // "unknown key 'x'; did you mean 'y'?" (the closest of `known`, when one is close)
  void unknown_key(std::string_view key, Location at, const std::vector<std::string>& known);
  // The string, or nullopt after a wrong_type.
  std::optional<std::string> string_of(const Node& n, std::string_view key);

 protected:
  Diagnostics& diags_;
};

}  // namespace rrgen
