// Plain YAML scalars resolved as go-yaml v2 resolves them (sigs.k8s.io/yaml, which the API server
// and kubectl decode YAML with: YAML 1.1, not 1.2): null (~, null, empty), booleans (true/false and
// y/yes/on, n/no/off in three casings), integers (decimal, 0x, 0o, 0b and a leading 0 for octal,
// "_" separators), floats, timestamps (2001-12-14, 2001-12-14T21:59:43.10-05:00: written as
// encoding/json writes a time.Time, "2001-12-14T00:00:00Z"); .inf and .nan have no JSON form and
// are refused as encoding/json refuses them. Quoted and !!str scalars are strings and never come here.
#pragma once
#include <string>
#include <string_view>
#include <variant>

#include "rr/core/json.hpp"

namespace rr::yaml {

// A value JSON cannot hold: encoding/json's text ("json: unsupported value: +Inf").
struct Unsupported {
  std::string message;
};

std::variant<Json, Unsupported> plain_scalar(std::string_view text);

// A plain scalar used as a mapping key: sigs.k8s.io/yaml turns a resolved key back into text
// ("yes" -> "true", "0x10" -> "16"); a null key is refused.
std::variant<std::string, Unsupported> plain_key(std::string_view text);

}  // namespace rr::yaml
