#include "load/spec_values.hpp"

#include "load/spec_reader.hpp"

namespace rrgen {

std::string spec_quote(std::string_view s) { return "'" + std::string(s) + "'"; }

void SpecValues::wrong_type(const Node& n, std::string_view what, std::string_view expected) {
  diags_.error(n.location, "spec-wrong-type",
               spec_quote(what) + " must be " + std::string(expected) + ", not " + describe(n));
}

void SpecValues::unknown_key(std::string_view key, Location at, const std::vector<std::string>& known) {
  const std::string near = closest_match(key, known);
  diags_.error(at, "spec-unknown-key",
               "unknown key " + spec_quote(key) + (near.empty() ? "" : "; did you mean " + spec_quote(near) + "?"));
}

std::optional<std::string> SpecValues::string_of(const Node& n, std::string_view key) {
  if (n.is_scalar() && resolve_scalar(n) == ScalarType::String) return n.text;
  wrong_type(n, key, "a string");
  return std::nullopt;
}

}  // namespace rrgen
