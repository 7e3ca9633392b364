// A CRD version's selectableFields (GA in 1.32): what apiextensions' validation checks of them,
// and the field selector names they give the version's custom resources.
#pragma once
#include <string>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// ValidateCustomResourceSelectableFields: each jsonPath given, a path of fields and map keys of
// `openapi_v3_schema` (no array notation), outside metadata, to a string, boolean or integer,
// named once; at most 8. `path` is the list's field path (spec.versions[0].selectableFields).
std::vector<FieldError> check_selectable_fields(const Json& openapi_v3_schema, const Json& selectable_fields,
                                                const std::string& path);

// The field selector names: each jsonPath without its leading '.' (".spec.color" → "spec.color").
std::vector<std::string> selectable_field_names(const Json& selectable_fields);

}  // namespace rr::schema
