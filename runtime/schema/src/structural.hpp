// The apiextensions checks that make a schema structural (and otherwise acceptable in a CRD),
// run on the schema document before it is compiled.
#pragma once
#include <string>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// Appends every reason the API server would refuse `schema` as a CRD's openAPIV3Schema, each at
// its path under `root_path` ("spec.validation.openAPIV3Schema.properties[spec].type: ...").
void check_structural(const Json& schema, const std::string& root_path, std::vector<FieldError>& out);

}  // namespace rr::schema
