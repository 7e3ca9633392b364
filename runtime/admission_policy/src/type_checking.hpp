// The API server's type checking of a ValidatingAdmissionPolicy (plugin/policy/validating's
// TypeChecker): each validation's expression and messageExpression compiled once per kind the
// policy's explicit resourceRules name, with `object`/`oldObject` typed by that kind's schema and
// `params` by the paramKind's. The results are status warnings only: the policy enforces as before.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiled_policy.hpp"
#include "rr/admission_policy/policy_status.hpp"
#include "rr/client/kind.hpp"

namespace rr::admission_policy::detail {

// What an expression is compiled with: object/oldObject and params with the given types (params
// declared only when given), request and namespaceObject as upstream builds them, the policy's
// variables typed in order (one that does not compile is dyn), the authorizer when asked (dyn).
struct TypedEnvironment {
  cel::CompileOptions options;
  TypedEnvironment(const cel::CelType& object, const std::optional<cel::CelType>& params, const Json& variables,
                   bool authorizer);

 private:
  void set_variables(std::map<std::string, cel::CelType> fields);
};

// The kinds type checking covers (TypeChecker.typesToCheck): every group x version x resource of
// the matchConstraints' resourceRules without wildcards (a rule with a wildcard group or version
// is skipped, wildcard resources and subresources are), that a served kind has; sorted by group,
// version, kind; at most 10.
std::vector<GroupVersionKind> types_to_check(const Json& policy, const std::vector<KindInfo>& served);

// spec.validations[i].expression / .messageExpression warnings: per kind with a schema, one
// "<group>/<version>, Kind=<kind>: ERROR: <input>:1:8: ..." paragraph (each ending in a newline),
// joined by newlines, as upstream formats them. Nothing when no kind resolves.
std::vector<ExpressionWarning> type_check(const Json& policy, const std::vector<KindInfo>& served,
                                          const SchemaResolver& resolve);

}  // namespace rr::admission_policy::detail
