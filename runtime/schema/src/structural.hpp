// What apiextensions-apiserver checks in a CRD's openAPIV3Schema before it accepts it, in two
// parts as it reports them: the structural-schema rules (sorted by message, as upstream sorts
// them) and the OpenAPI schema rules (in walk order).
#pragma once
#include <string>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// Structural invariants and completeness (k8s.io/apiextensions-apiserver/pkg/apiserver/schema).
std::vector<FieldError> structural_errors(const Json& schema, const std::string& root_path);
// ValidateCustomResourceDefinitionOpenAPISchema: unsupported keywords and the x-kubernetes-* rules.
std::vector<FieldError> openapi_errors(const Json& schema, const std::string& root_path);

}  // namespace rr::schema
