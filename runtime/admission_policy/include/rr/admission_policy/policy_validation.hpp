// Part of the API server's validation of admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy
// and ValidatingAdmissionPolicyBinding objects (pkg/apis/admissionregistration/validation), with
// its field paths and messages: the CEL expressions must compile (validations, messageExpressions,
// matchConditions, variables, audit annotations, with the result type each needs), and the
// required members and enum values that do not depend on the Go defaults the local cluster does
// not write. docs/runtime/37-admission-policies.md lists what is checked.
#pragma once
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::admission_policy {

std::vector<FieldError> validate_validating_policy(const Json& policy);
std::vector<FieldError> validate_validating_binding(const Json& binding);

}  // namespace rr::admission_policy
