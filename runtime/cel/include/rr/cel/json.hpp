// CEL values from and to JSON (rr::Json): how Kubernetes objects enter and leave CEL.
#pragma once
#include <optional>

#include "rr/cel/value.hpp"
#include "rr/core/json.hpp"

namespace rr::cel {

// Objects become maps with string keys, arrays lists; an integral number in int64 range becomes
// int (uint above that range, when it fits), other numbers double.
Value from_json(const rr::Json& json);

// The JSON form of a value: ints, uints and doubles as numbers, bytes as base64, durations and
// timestamps in their string forms, maps with string keys as objects. nullopt for what JSON cannot
// hold (a map with non-string keys, a type, an error, an empty optional).
std::optional<rr::Json> to_json(const Value& value);

}  // namespace rr::cel
