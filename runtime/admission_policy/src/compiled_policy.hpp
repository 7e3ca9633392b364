// A ValidatingAdmissionPolicy and its bindings as admission uses them: read from their stored
// JSON once, every CEL expression compiled with the variables the API server declares for it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rr/cel/program.hpp"
#include "rr/client/label_selector.hpp"
#include "rr/core/json.hpp"

namespace rr::admission_policy::detail {

// NamedRuleWithOperations.
struct ResourceRule {
  std::vector<std::string> operations, api_groups, api_versions, resources, resource_names;
  std::string scope = "*";
};

// MatchResources: a policy's matchConstraints or a binding's matchResources.
struct MatchResources {
  Selector namespace_selector, object_selector;
  std::vector<ResourceRule> rules, exclude;
  bool equivalent = true;  // matchPolicy
};

struct Expression {
  std::string source;
  std::optional<cel::Program> program;
  std::string error;  // "compilation failed: ..." when it does not compile
};

struct Validation {
  Expression expression;
  std::string message, reason;
  std::optional<Expression> message_expression;
};

struct NamedExpression {
  std::string name;  // a matchCondition's name, a variable's name, an audit annotation's key
  Expression expression;
};

struct ParamKind {
  std::string api_version, kind;
};

// A MutatingAdmissionPolicy's mutation: patchType JSONPatch or ApplyConfiguration.
struct Mutation {
  bool json_patch = false;
  Expression expression;
};

struct CompiledPolicy {
  std::string name, resource_version;
  std::int64_t generation = 0;
  bool fail_closed = true;  // failurePolicy Fail (the default)
  std::optional<ParamKind> param_kind;
  std::optional<MatchResources> constraints;  // nullopt: the policy matches nothing (a required field)
  std::string selector_error;                 // an invalid selector: a configuration error
  std::vector<NamedExpression> match_conditions, variables, audit_annotations;
  std::vector<Validation> validations;
  std::vector<Mutation> mutations;  // a MutatingAdmissionPolicy's
  bool reinvoke_if_needed = false;  // reinvocationPolicy IfNeeded
};

struct ParamRef {
  std::string name, namespace_;
  std::optional<Selector> selector;
  bool deny_not_found = false;  // parameterNotFoundAction Deny
};

struct CompiledBinding {
  std::string name, policy_name;
  std::vector<std::string> actions;  // validationActions as written
  std::optional<ParamRef> param_ref;
  MatchResources match;
  std::string selector_error;
};

// The strings of an array member (others skipped), and a string member (else `fallback`).
std::vector<std::string> strings_at(const Json& object, const char* key);
std::string string_at(const Json& object, const char* key, std::string fallback = {});

// Throws nothing: what cannot be read is a configuration error the policy reports when it matches.
CompiledPolicy compile_policy(const Json& policy);
CompiledBinding read_binding(const Json& binding);

// "ERROR: <input>:1:3: ..." of each expression that does not compile, with its field path, for
// the policy's status.typeChecking.expressionWarnings.
struct ExpressionWarning {
  std::string field_ref, warning;
};
std::vector<ExpressionWarning> expression_warnings(const CompiledPolicy& policy);

}  // namespace rr::admission_policy::detail
