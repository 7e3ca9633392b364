// The conformance files' VALUE objects (cel.expr.Value as JSON, see the corpus README) as CEL
// values, and the exact comparison a conformance case needs (same kinds, not CEL's `==`).
#pragma once
#include <optional>
#include <string>

#include "rr/cel/value.hpp"
#include "rr/core/json.hpp"

namespace rr::cel::conformance {

// nullopt with `why` set for what this implementation has no value for (protobuf messages other
// than the well-known types, enums of message types, unknown sets).
std::optional<Value> value_of(const rr::Json& json, std::string& why);

// The same kind and value, recursively; NaN equals NaN.
bool same_value(const Value& a, const Value& b);

}  // namespace rr::cel::conformance
