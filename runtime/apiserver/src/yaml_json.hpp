// YAML documents (a CRD file, possibly several documents) as JSON, with YAML 1.2 core-schema
// scalar resolution: plain null/true/false/numbers become JSON ones, quoted scalars stay strings.
#pragma once
#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// Every non-empty document; throws std::runtime_error with the parser's message on bad YAML.
std::vector<Json> yaml_documents(const std::string& text);

}  // namespace rr::apiserver_detail
