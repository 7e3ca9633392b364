// apiextensions' checks of an embedded resource's TypeMeta and ObjectMeta
// (pkg/apiserver/schema/objectmeta/validation.go), a pass of its own upstream.
#pragma once
#include <string>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// `value` is the embedded object at `path`.
void check_embedded(const Json& value, const std::string& path, std::vector<FieldError>& out);

}  // namespace rr::schema
