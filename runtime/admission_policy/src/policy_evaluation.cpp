#include "policy_evaluation.hpp"

#include <limits>

#include "rr/cel/cost.hpp"
#include "rr/cel/json.hpp"
#include "rr/cel/program.hpp"
#include "rr/client/patch.hpp"
#include "rr/cluster/apply_merge.hpp"

namespace rr::admission_policy::detail {

namespace {

// The longest messageExpression result used (celconfig.MaxEvaluatedMessageExpressionSizeBytes).
constexpr std::size_t max_message_size = 5 * 1024;
// An audit annotation's value is cut there (maxAuditAnnotationValueLength).
constexpr std::size_t max_audit_value_size = 10 * 1024;

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\n\r\v\f");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\n\r\v\f") - first + 1);
}

struct OutOfBudget {};

// Evaluations that share one runtime cost budget (activation.Evaluate).
class Evaluator {
 public:
  explicit Evaluator(const cel::Activation& vars) : vars_(vars) {}

  // The value, or the API server's error text in `error`. Throws OutOfBudget when the budget is spent.
  cel::Value run(const Expression& e, std::string& error) {
    if (!e.error.empty()) {
      error = "compilation error: " + e.error;
      return cel::Value::error(error);
    }
    std::uint64_t cost = 0;
    cel::Value v = e.program->evaluate(vars_, cel::EvalOptions{cel::per_call_limit}, &cost);
    if (cost > budget_) throw OutOfBudget{};
    budget_ -= cost;
    if (v.is_error()) error = "expression '" + e.source + "' resulted in error: " + v.error_message();
    return v;
  }

 private:
  const cel::Activation& vars_;
  std::uint64_t budget_ = cel::runtime_cel_cost_budget;
};

cel::Activation activation_of(const CompiledPolicy& policy, const EvaluationInput& in) {
  cel::Activation vars;
  vars.set_json("object", in.object);
  vars.set_json("oldObject", in.old_object);
  vars.set_json("request", in.request);
  vars.set_json("namespaceObject", in.namespace_object);
  if (policy.param_kind) vars.set_json("params", in.params);
  if (in.authorizer) vars.set("authorizer", *in.authorizer);
  if (in.request_resource_check) vars.set("authorizer.requestResource", *in.request_resource_check);
  return vars;
}

// matchConditions (matchconditions.Matcher): any false skips the policy; errors under
// failurePolicy Fail are one error ("[a, b]" for several).
std::optional<std::string> conditions(const CompiledPolicy& policy, const cel::Activation& vars, bool& matched) {
  Evaluator eval(vars);
  std::vector<std::string> errors;
  matched = true;
  for (const auto& c : policy.match_conditions) {
    std::string error;
    cel::Value v;
    try {
      v = eval.run(c.expression, error);
    } catch (const OutOfBudget&) {
      errors.push_back(std::string(cel::cost_budget_exhausted_message));
      break;
    }
    if (!error.empty()) errors.push_back(error);
    else if (v.kind() != cel::Kind::Bool) errors.push_back("matchCondition '" + c.name + "' must evaluate to bool");
    else if (!v.as_bool()) {
      matched = false;
      return std::nullopt;
    }
  }
  if (errors.empty() || !policy.fail_closed) {
    matched = errors.empty();
    return std::nullopt;
  }
  if (errors.size() == 1) return errors.front();
  std::string text = "[";
  for (std::size_t i = 0; i < errors.size(); ++i) text += (i ? ", " : "") + errors[i];
  return text + "]";
}

PolicyDecision error_decision(const CompiledPolicy& policy, std::string message, std::size_t index = 0) {
  return PolicyDecision{
      .deny = policy.fail_closed, .error = true, .message = std::move(message), .reason = "", .index = index};
}

std::string message_of(const Validation& validation, Evaluator& eval) {
  std::string message;
  if (validation.message_expression) {
    std::string error;
    const cel::Value v = eval.run(*validation.message_expression, error);
    // Anything but a usable string falls back to the message (validator.go).
    if (error.empty() && v.kind() == cel::Kind::String) {
      message = trim(v.as_string());
      if (message.size() > max_message_size || message.find('\n') != std::string::npos) message.clear();
    }
  }
  if (message.empty()) message = trim(validation.message);
  if (message.empty()) message = "failed expression: " + trim(validation.expression.source);
  return message;
}

// Variables, in order (the API server evaluates them lazily; an error stays in the value and
// fails only the expressions that read it, as there).
void bind_variables(const CompiledPolicy& policy, Evaluator& eval, cel::Activation& vars) {
  for (const auto& v : policy.variables) {
    std::string error;
    cel::Value value = eval.run(v.expression, error);
    vars.set("variables." + v.name, error.empty() ? std::move(value) : cel::Value::error(error));
  }
}

}  // namespace

std::optional<std::string> mutate(const CompiledPolicy& policy, EvaluationInput& input) {
  {
    const cel::Activation vars = activation_of(policy, input);
    bool matched = true;
    if (auto error = conditions(policy, vars, matched)) return error;
    if (!matched) return std::nullopt;
  }
  for (const Mutation& mutation : policy.mutations) {
    if (input.object.is_null()) return std::nullopt;  // a delete: nothing to patch
    cel::Activation vars = activation_of(policy, input);
    Evaluator eval(vars);
    try {
      bind_variables(policy, eval, vars);
      std::string error;
      const cel::Value v = eval.run(mutation.expression, error);
      if (!error.empty()) return error;
      const auto json = cel::to_json(v);
      if (!json || (mutation.json_patch ? !json->is_array() : !json->is_object())) {
        return "expression '" + mutation.expression.source + "' must evaluate to " +
               (mutation.json_patch ? "a list of JSONPatch" : "an Object");
      }
      if (mutation.json_patch) input.object = apply_json_patch(input.object, *json);
      else input.object = merge_apply_configuration(input.object, *json);
    } catch (const OutOfBudget&) {
      return std::string(cel::cost_budget_exhausted_message);
    } catch (const std::exception& e) {
      return std::string(e.what());  // a JSONPatch that does not apply
    }
  }
  return std::nullopt;
}

EvaluationResult evaluate(const CompiledPolicy& policy, const EvaluationInput& input) {
  EvaluationResult out;
  cel::Activation vars = activation_of(policy, input);
  bool matched = true;
  if (auto error = conditions(policy, vars, matched)) {
    out.decisions.push_back(error_decision(policy, *error));
    return out;
  }
  if (!matched) return out;

  Evaluator eval(vars);
  try {
    bind_variables(policy, eval, vars);
    for (std::size_t i = 0; i < policy.validations.size(); ++i) {
      const Validation& validation = policy.validations[i];
      std::string error;
      const cel::Value v = eval.run(validation.expression, error);
      if (!error.empty()) {
        out.decisions.push_back(error_decision(policy, error, i));
      } else if (v.kind() != cel::Kind::Bool || !v.as_bool()) {
        out.decisions.push_back(PolicyDecision{.deny = true,
                                               .error = false,
                                               .message = message_of(validation, eval),
                                               .reason = validation.reason.empty() ? "Invalid" : validation.reason,
                                               .index = i});
      }
    }
  } catch (const OutOfBudget&) {
    out.decisions.assign(1, error_decision(policy, std::string(cel::cost_budget_exhausted_message)));
    return out;
  }

  Evaluator audit(vars);  // their own budget
  for (const auto& a : policy.audit_annotations) {
    std::string error;
    cel::Value v;
    try {
      v = audit.run(a.expression, error);
    } catch (const OutOfBudget&) {
      error = std::string(cel::cost_budget_exhausted_message);
    }
    if (error.empty() && v.kind() == cel::Kind::String) {
      std::string value = trim(v.as_string());
      if (value.size() > max_audit_value_size) value.resize(max_audit_value_size);
      if (!value.empty()) out.audit_annotations.push_back({a.name, std::move(value)});
      continue;
    }
    if (error.empty() && v.kind() == cel::Kind::Null) continue;
    if (error.empty()) {
      error = "valueExpression '" + a.expression.source +
              "' resulted in unsupported return type: " + cel::type_name(v) +
              ". Return type must be either string or null.";
    }
    if (policy.fail_closed) out.audit_errors.push_back(std::move(error));
  }
  return out;
}

}  // namespace rr::admission_policy::detail
