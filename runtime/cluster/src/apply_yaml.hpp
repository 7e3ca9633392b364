// The body of an apply request (application/apply-patch+yaml): YAML, of which JSON is a subset.
#pragma once
#include <string_view>

#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// The first YAML document as JSON, read by rr::yaml as the API server's YAML decoder (go-yaml v2
// through sigs.k8s.io/yaml) reads it: null (~, null, empty), booleans (true/false and YAML 1.1's
// yes/no/on/off/y/n), integers (decimal, 0x, 0o, 0b, and a leading 0 for octal; "_" separators
// allowed), floats; quoted scalars stay strings. Throws ApiError 400 BadRequest
// "error decoding YAML: yaml: line N: ..." when the text is not YAML or not a mapping.
Json parse_apply_body(std::string_view body);

}  // namespace rr::cluster_detail
