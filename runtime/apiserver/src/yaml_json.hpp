// YAML documents (a request body, an apply configuration, a facts file) as JSON, read by rr::yaml
// as the API server reads them: go-yaml v2's scalars (plain null/booleans/numbers become JSON ones,
// yes/on too; quoted scalars stay strings).
#pragma once
#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// Every non-empty document; throws std::runtime_error with sigs.k8s.io/yaml's text on bad YAML
// ("error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context").
std::vector<Json> yaml_documents(const std::string& text);

}  // namespace rr::apiserver_detail
