// x-kubernetes-validations compiled once and checked as the API server does (cel_rules.hpp).
#include "rr/schema_cel/cel_rules.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "compiled_rule.hpp"
#include "decl_type.hpp"
#include "field_path.hpp"
#include "references.hpp"
#include "rr/core/go_quote.hpp"
#include "rule_spec.hpp"
#include "schema_members.hpp"

namespace rr::schema {

static_assert(CostBudget{}.remaining == rr::cel::runtime_cel_cost_budget, "one runtime budget, as the API server's");

namespace {

using rr::cel::CelType;
using rr::cel::Value;

// The longest message a messageExpression may produce (apiserver's MaxEvaluatedMessageExpressionSizeBytes).
constexpr std::size_t kMaxMessageExpressionBytes = 5 * 1024;

// A rule must be a bool and a messageExpression a string, exactly: dyn (e.g. an int-or-string
// field) is refused, as cel-go's checker refuses it.
bool is(const CelType& t, CelType::Kind kind) { return t.kind() == kind; }

rr::cel::CompileOptions options_for(const CelType& self, bool optional_old_self) {
  rr::cel::CompileOptions options;
  options.variables = std::vector<std::string>{"self", "oldSelf"};
  options.declarations.emplace("self", self);
  options.declarations.emplace("oldSelf", optional_old_self ? CelType::optional(self) : self);
  return options;
}

// Compiles one entry into `out`; false (with errors appended) when it does not compile.
bool compile_rule(const detail::RuleSpec& spec, const CelType& self, const rr::Json& node_schema,
                  const CompileContext& context, const std::string& at, CompiledRule& out,
                  std::vector<FieldError>& errors) {
  const bool optional_old_self = spec.optional_old_self.value_or(false);
  const rr::cel::CompileResult rule = rr::cel::compile(spec.rule, options_for(self, optional_old_self));
  if (!rule.ok()) {
    errors.push_back(detail::field_error(at + ".rule", FieldErrorType::Invalid, detail::go_rule_value(spec),
                                         "compilation failed: " + rule.error_text));
    return false;
  }
  if (!is(rule.type, CelType::Kind::Bool)) {
    errors.push_back(detail::field_error(at + ".rule", FieldErrorType::Invalid, detail::go_rule_value(spec),
                                         "cel expression must evaluate to a bool"));
    return false;
  }
  // The estimate, counted as often as the node can occur (apiextensions' getExpressionCost).
  const std::uint64_t rule_cost = rr::cel::cost_times_cardinality(rule.cost.max, context.cardinality);
  if (context.tally) context.tally->observe(at + ".rule", rule_cost);
  if (rule_cost > rr::cel::static_estimated_cost_limit) {
    errors.push_back(
        detail::field_error(at + ".rule", FieldErrorType::Forbidden, {}, rr::cel::rule_cost_message(rule_cost)));
    return false;
  }
  const rr::cel::ParseResult parsed = rr::cel::parse(spec.rule);
  out.uses_old_self = parsed.ok() && detail::references(*parsed.expr, "oldSelf");
  if (out.uses_old_self && !context.uncorrelatable_within.empty()) {
    errors.push_back(detail::field_error(
        at + ".rule", FieldErrorType::Invalid, rr::go_quote(spec.rule),
        "oldSelf cannot be used on the uncorrelatable portion of the schema within " + context.uncorrelatable_within));
    return false;
  }
  if (spec.optional_old_self && !out.uses_old_self) {
    errors.push_back(detail::field_error(at + ".optionalOldSelf", FieldErrorType::Invalid,
                                         *spec.optional_old_self ? "true" : "false",
                                         "may not be set if oldSelf is not used in rule"));
    return false;
  }
  if (!spec.message_expression.empty()) {
    // The message sees oldSelf as a plain value, bound only on update (as the API server's activation).
    const rr::cel::CompileResult message = rr::cel::compile(spec.message_expression, options_for(self, false));
    if (!message.ok() || !is(message.type, CelType::Kind::String)) {
      errors.push_back(
          detail::field_error(at + ".messageExpression", FieldErrorType::Invalid, detail::go_rule_value(spec),
                              message.ok() ? "messageExpression must evaluate to a string"
                                           : "messageExpression compilation failed: " + message.error_text));
      return false;
    }
    if (context.tally) context.tally->observe(at + ".messageExpression", message.cost.max);
    if (message.cost.max > rr::cel::static_estimated_cost_limit) {
      errors.push_back(detail::field_error(at + ".messageExpression", FieldErrorType::Forbidden, {},
                                           rr::cel::message_expression_cost_message(message.cost.max)));
      return false;
    }
    out.message_program = message.program;
  }
  if (!spec.field_path.empty()) out.field_path = detail::resolve_field_path(spec.field_path, node_schema).path;
  out.rule = detail::trim_space(spec.rule);
  out.message = detail::trim_space(spec.message);
  out.program = rule.program;
  out.reason = detail::reason_type(spec.reason);
  out.optional_old_self = optional_old_self;
  return true;
}

// The messageExpression's text, or nullopt where the API server falls back to the message: an
// evaluation error, a result that is not a string, empty, too long or with a line break.
std::optional<std::string> expressed_message(const CompiledRule& rule, const rr::cel::Activation& vars) {
  if (!rule.message_program) return std::nullopt;
  const Value v = rule.message_program->evaluate(vars);
  if (v.kind() != rr::cel::Kind::String) return std::nullopt;
  std::string text = detail::trim_space(v.as_string());
  if (text.empty() || text.size() > kMaxMessageExpressionBytes || text.find('\n') != std::string::npos) {
    return std::nullopt;
  }
  return text;
}

// "failed rule: <rule>" without a message; the message names the rule in evaluation errors.
std::string message_or_default(const CompiledRule& rule) {
  return rule.message.empty() ? "failed rule: " + rule.rule : rule.message;
}
const std::string& rule_error_string(const CompiledRule& rule) {
  return rule.message.empty() ? rule.rule : rule.message;
}

// A rule that evaluated to an error, worded as the API server words it (always Invalid, at the node).
std::string evaluation_error(const CompiledRule& rule, const std::string& error) {
  if (error.starts_with("no such overload") || error.starts_with("no matching overload")) {
    return "'" + error +
           "': call arguments did not match a supported operator, function or macro signature for rule: " +
           rule_error_string(rule);
  }
  return error + " evaluating rule: " + rule_error_string(rule);
}

// A failed rule's error: its reason decides the type (Duplicate shows the value and drops the
// detail, as the API server's field.Duplicate does).
FieldError rule_failure(const CompiledRule& rule, const std::string& at, const std::string& shown,
                        const std::string& text) {
  switch (rule.reason) {
    case FieldErrorType::Duplicate: return detail::field_error(at, rule.reason, shown, {});
    case FieldErrorType::Required:
    case FieldErrorType::Forbidden: return detail::field_error(at, rule.reason, {}, text);
    default: return detail::field_error(at, FieldErrorType::Invalid, shown, text);
  }
}

}  // namespace

CelRules::CelRules() = default;
CelRules::~CelRules() = default;

std::unique_ptr<CelRules> CelRules::compile(const Json& node_schema, const std::string& schema_path,
                                            std::vector<FieldError>& errors, const CompileContext& context) {
  std::unique_ptr<CelRules> rules(new CelRules());
  rules->schema_ = node_schema;
  const auto list = node_schema.is_object() ? node_schema.find("x-kubernetes-validations") : node_schema.end();
  if (!node_schema.is_object() || list == node_schema.end() || !list->is_array()) return rules;
  const std::size_t before = errors.size();
  std::vector<detail::RuleSpec> specs;
  for (std::size_t i = 0; i < list->size(); ++i) {
    specs.push_back(detail::read_rule_spec((*list)[i]));
    const detail::RuleSpec& spec = specs.back();
    const std::string at = schema_path + ".x-kubernetes-validations[" + std::to_string(i) + "]";
    const std::size_t spec_errors = errors.size();
    detail::check_rule_spec(spec, at, errors);
    if (errors.size() == spec_errors && !spec.field_path.empty() &&
        !detail::resolve_field_path(spec.field_path, node_schema).error.empty()) {
      errors.push_back(detail::field_error(at + ".fieldPath", FieldErrorType::Invalid, rr::go_quote(spec.field_path),
                                           "fieldPath must be a valid path"));
    }
  }
  // As the API server: an entry that is wrong as written stops the compilation of them all.
  if (errors.size() > before) return nullptr;
  const bool root = context.resource_root || detail::schema_flag(node_schema, "x-kubernetes-embedded-resource");
  const auto decl = detail::decl_type(node_schema, root, "selfType");
  // A node Kubernetes exposes nothing of (preserve-unknown-fields without a type): self is dyn.
  const CelType self = decl ? decl->type : CelType::dyn();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string at = schema_path + ".x-kubernetes-validations[" + std::to_string(i) + "]";
    CompiledRule compiled;
    if (compile_rule(specs[i], self, node_schema, context, at, compiled, errors))
      rules->rules_.push_back(std::move(compiled));
  }
  if (errors.size() > before) return nullptr;
  return rules;
}

void CelRules::check(const Json& self, const Json* old_self, const std::string& path, std::vector<FieldError>& out,
                     const CheckOptions& options) const {
  // Only non-null values are validated; a rule about null belongs on the enclosing node.
  if (self.is_null() || rules_.empty()) return;
  const Value self_value = cel_value_of(self, schema_);
  const bool has_old = old_self != nullptr && !old_self->is_null();
  const Value old_value = has_old ? cel_value_of(*old_self, schema_) : Value();
  rr::cel::Activation vars;  // oldSelf bound only on update
  vars.set("self", self_value);
  if (has_old) vars.set("oldSelf", old_value);
  rr::cel::Activation optional_vars;  // for optionalOldSelf rules: oldSelf is always an optional
  optional_vars.set("self", self_value);
  optional_vars.set("oldSelf", has_old ? Value::optional_of(old_value) : Value::optional_none());
  // The value shown when a rule fails (Invalid or Duplicate): a scalar's own value, nothing for an
  // object or a list (Kubernetes 1.35, kubernetes/kubernetes#133832). Evaluation and cost errors
  // still show the node's schema type, quoted ("object", "string", "" for int-or-string).
  const auto type_it = schema_.is_object() ? schema_.find("type") : schema_.end();
  const std::string type_shown = rr::go_quote(
      type_it != schema_.end() && type_it->is_string() ? type_it->get<std::string>() : std::string());
  const std::string shown = self.is_string()                                         ? rr::go_quote(self.get<std::string>())
                            : self.is_number() || self.is_boolean() || self.is_null() ? self.dump()
                                                                                        : std::string();
  // Ratcheting: the update left this value (or, uncorrelated, its nearest correlated ancestor) as it was.
  const bool unchanged = options.ratcheting &&
                         (has_old ? *old_self == self : old_self == nullptr && options.ancestor_unchanged);
  CostBudget own_budget;
  CostBudget& budget = options.budget ? *options.budget : own_budget;
  const rr::cel::EvalOptions per_call{.cost_limit = rr::cel::per_call_limit};
  for (const CompiledRule& rule : rules_) {
    if (budget.exhausted) return;
    if (rule.uses_old_self && !has_old && !rule.optional_old_self) continue;  // transition rules need an old value
    std::uint64_t cost = 0;
    const Value result = rule.program->evaluate(rule.optional_old_self ? optional_vars : vars, per_call, &cost);
    // The object's budget first, then the call's limit: either stops every later rule (the API server's order).
    if (cost > budget.remaining) {
      budget.exhausted = true;
      out.push_back(detail::field_error(path, FieldErrorType::Invalid, type_shown,
                                        std::string(rr::cel::cost_budget_exhausted_message)));
      return;
    }
    budget.remaining -= cost;
    if (result.is_error() && result.error_message().starts_with(rr::cel::cost_limit_exceeded_message)) {
      budget.exhausted = true;
      out.push_back(detail::field_error(path, FieldErrorType::Invalid, type_shown,
                                        rr::cel::call_cost_exceeded_message(rule_error_string(rule))));
      return;
    }
    if (result.is_error()) {
      out.push_back(detail::field_error(path, FieldErrorType::Invalid, type_shown,
                                        evaluation_error(rule, result.error_message())));
      continue;
    }
    if (result.kind() == rr::cel::Kind::Bool && result.as_bool()) continue;
    const std::string at = rule.field_path.empty() ? path
                           : path.empty()          ? rule.field_path
                                                   : path + "." + rule.field_path;
    FieldError failure = rule_failure(rule, at, shown,
                                      expressed_message(rule, vars).value_or(message_or_default(rule)));
    if (!rule.uses_old_self && unchanged) {
      if (options.warnings != nullptr) options.warnings->push_back(std::move(failure.message));
    } else {
      out.push_back(std::move(failure));
    }
  }
}

bool CelRules::has_transition_rules() const {
  for (const CompiledRule& rule : rules_)
    if (rule.uses_old_self) return true;
  return false;
}

void CostTally::observe(const std::string& path, std::uint64_t cost) {
  total = total + cost < total ? UINT64_MAX : total + cost;  // saturating, as the API server's guard
  most_expensive.emplace_back(path, cost);
  std::stable_sort(most_expensive.begin(), most_expensive.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (most_expensive.size() > 4) most_expensive.resize(4);
}

void CostTally::check(const std::string& schema_path, std::vector<FieldError>& errors) const {
  if (total <= rr::cel::static_estimated_crd_cost_limit) return;
  for (const auto& expensive : most_expensive) {
    errors.push_back(detail::field_error(
        expensive.first, FieldErrorType::Forbidden, {},
        "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"));
  }
  errors.push_back(detail::field_error(schema_path, FieldErrorType::Forbidden, {}, rr::cel::crd_cost_message(total)));
}

rr::cel::CelType cel_type_of(const Json& node_schema) {
  const bool embedded = detail::schema_flag(node_schema, "x-kubernetes-embedded-resource");
  const auto decl = detail::decl_type(node_schema, embedded, "selfType");
  return decl ? decl->type : CelType::dyn();
}

rr::cel::CelType resource_cel_type(const Json& root_schema, const std::string& type_name) {
  const auto decl = detail::decl_type(root_schema, true, type_name);
  return decl ? decl->type : CelType::dyn();
}

}  // namespace rr::schema
