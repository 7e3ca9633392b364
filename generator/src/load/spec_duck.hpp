// `resource:` written as a mapping: a duck type and the kinds it applies to
// (docs/reconciler-spec.md#duck-resources). Kept apart from spec_reader.cpp, which calls it when
// `resource` is a mapping. Which ducks exist and whether a kind carries what the duck reads is
// checked by sema/spec_duck_resolve.cpp.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "load/spec.hpp"
#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// Reads `resource: {duck: Name, [type: cpp::Type, header: path,] kinds: [...]}`; reports
// spec-unknown-key, spec-wrong-type, spec-missing-key, spec-bad-name, spec-bad-value,
// spec-bad-kind-ref and spec-duck-kinds (an empty or repeated kind), and returns what it could read.
std::optional<SpecDuck> read_spec_duck(const Node& n, Diagnostics& diags);

// The keys of the mapping, in documentation order (the JSON Schema test compares them).
const std::vector<std::string>& spec_duck_keys();  // duck, type, header, kinds

}  // namespace rrgen
