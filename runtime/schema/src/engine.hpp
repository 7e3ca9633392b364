// The passes over a compiled tree, shared by Schema's methods and by compile()'s check of defaults.
#pragma once
#include <string>
#include <vector>

#include "node.hpp"
#include "rr/core/validator.hpp"

namespace rr::schema {

// One validate() call: options and what the passes found on the way.
struct ValidationRun {
  bool ratcheting = true;
  bool type_error = false;  // a value of the wrong type: blocks the NodeChecks, as upstream's CEL
  bool checks_ran = false;
  std::vector<FieldError> check_errors;  // the NodeChecks' findings, reported after the schema's
};

// Validates `value` against `node` at the validator's current path; `old` is the correlated old
// value or nullptr. Findings go to `out`.
void validate_value(const Node& node, const Json& value, const Json* old, Validator& v, ValidationRun& run,
                    std::vector<FieldError>& out);

void default_value(const Node& node, Json& value);

// `path` is the value's path in `unknown field` form ("spec.items[0]"); `resource` keeps the
// apiVersion, kind and metadata of an object (the root, an embedded resource).
void prune_value(const Node& node, Json& value, bool resource, const std::string& path,
                 std::vector<std::string>& pruned);

}  // namespace rr::schema
