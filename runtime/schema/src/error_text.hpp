// Field errors the engine words itself (the rest come from rr::Validator), in the form of
// k8s.io/apimachinery's field.Error: "<path>: <Type>[: <value>][: <detail>]".
#pragma once
#include <string>
#include <string_view>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// `shown_value` is already rendered (e.g. "\"string\"", "7"); empty leaves the value out.
FieldError field_error(std::string path, FieldErrorType type, std::string_view shown_value, std::string_view detail);

}  // namespace rr::schema

namespace rr::schema {

// Go's fmt "%#v" of an unstructured JSON value, as field.Error prints composite bad values:
// map[string]interface {}{"a":1}, []interface {}{"x"}; scalars as JSON.
std::string go_value(const Json& value);

}  // namespace rr::schema
