// One policy evaluated for one binding and one param object (validating/validator.go): the
// matchConditions, then the variables, the validations (with their messages) and the audit
// annotations, under the API server's cost limits.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compiled_policy.hpp"
#include "rr/cel/value.hpp"

namespace rr::admission_policy::detail {

struct EvaluationInput {
  Json object, old_object, request, namespace_object;  // null where the write has none
  Json params;                                         // null without params
  std::optional<cel::Value> authorizer, request_resource_check;
};

struct PolicyDecision {
  bool deny = false;
  bool error = false;  // an evaluation error (failurePolicy decided `deny`)
  std::string message, reason;
  std::size_t index = 0;  // the validation's index
};

struct AuditValue {
  std::string key, value;
};

struct EvaluationResult {
  std::vector<PolicyDecision> decisions;
  std::vector<AuditValue> audit_annotations;
  // Audit annotations that failed under failurePolicy Fail: denials whatever the binding's actions.
  std::vector<std::string> audit_errors;
};

EvaluationResult evaluate(const CompiledPolicy& policy, const EvaluationInput& input);

// A MutatingAdmissionPolicy: its mutations applied to input.object in order, each seeing the
// object the previous one made (JSONPatch as RFC 6902; ApplyConfiguration merged as server-side
// apply merges: rr/cluster/apply_merge.hpp). The error text of the first that fails, nullopt when
// every one applied or a matchCondition skipped the policy.
std::optional<std::string> mutate(const CompiledPolicy& policy, EvaluationInput& input);

}  // namespace rr::admission_policy::detail
