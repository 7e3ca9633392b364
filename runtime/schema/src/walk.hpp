// The validation walk (validate.cpp), behind validate_tree().
#pragma once
#include <string>
#include <vector>

#include "node.hpp"
#include "rr/core/validator.hpp"

namespace rr::schema {

// One validation: options and what the walk found on the way.
struct ValidationRun {
  bool ratcheting = true;
  bool type_invalid = false;  // a wrong type or format (upstream's field.TypeInvalid) was reported
  bool checks_ran = false;
  std::vector<std::string>* warnings = nullptr;  // for the NodeChecks' ratcheted failures
  CostBudget budget;                             // the NodeChecks' shared runtime cost budget
  std::vector<FieldError> check_errors;  // the NodeChecks' findings, reported after the schema's
  std::vector<FieldError> junctor_errors;   // the junctors' findings, also among the schema's
  std::vector<FieldError> embedded_errors;  // embedded resources' TypeMeta/ObjectMeta: never ratcheted
};

// Validates `value` against `node` at the validator's current path; `old` is the correlated old
// value or nullptr. Findings go to `out`.
void validate_value(const Node& node, const Json& value, const Json* old, Validator& v, ValidationRun& run,
                    std::vector<FieldError>& out);

}  // namespace rr::schema
