#include "compiled_policy.hpp"

#include <stdexcept>

#include "rr/core/meta.hpp"

namespace rr::admission_policy::detail {

std::vector<std::string> strings_at(const Json& object, const char* key) {
  std::vector<std::string> out;
  if (auto it = object.find(key); it != object.end() && it->is_array()) {
    for (const Json& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

std::string string_at(const Json& object, const char* key, std::string fallback) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

namespace {

// metav1.LabelSelector JSON -> Selector; std::invalid_argument on a bad operator or value.
Selector selector_of(const Json& json) {
  if (!json.is_object()) return {};
  LabelSelector selector;
  if (auto labels = json.find("matchLabels"); labels != json.end() && labels->is_object()) {
    selector.match_labels = labels->get<std::map<std::string, std::string>>();
  }
  if (auto exprs = json.find("matchExpressions"); exprs != json.end() && exprs->is_array()) {
    selector.match_expressions.emplace();
    for (const Json& e : *exprs) {
      LabelSelectorRequirement r;
      r.key = string_at(e, "key");
      r.operator_ = string_at(e, "operator");
      if (e.contains("values")) r.values = strings_at(e, "values");
      selector.match_expressions->push_back(std::move(r));
    }
  }
  return Selector::from(selector);
}

std::vector<ResourceRule> rules_of(const Json& match, const char* key) {
  std::vector<ResourceRule> out;
  auto it = match.find(key);
  if (it == match.end() || !it->is_array()) return out;
  for (const Json& r : *it) {
    ResourceRule rule;
    rule.operations = strings_at(r, "operations");
    rule.api_groups = strings_at(r, "apiGroups");
    rule.api_versions = strings_at(r, "apiVersions");
    rule.resources = strings_at(r, "resources");
    rule.resource_names = strings_at(r, "resourceNames");
    rule.scope = string_at(r, "scope", "*");
    out.push_back(std::move(rule));
  }
  return out;
}

// Reads matchResources; a bad selector is reported in `error`.
MatchResources match_of(const Json& match, std::string& error) {
  MatchResources m;
  try {
    m.namespace_selector = selector_of(match.value("namespaceSelector", Json::object()));
    m.object_selector = selector_of(match.value("objectSelector", Json::object()));
  } catch (const std::exception& e) {
    error = e.what();
  }
  m.rules = rules_of(match, "resourceRules");
  m.exclude = rules_of(match, "excludeResourceRules");
  m.equivalent = string_at(match, "matchPolicy", "Equivalent") != "Exact";
  return m;
}

enum class Use { Validation, MatchCondition, Variable, Message, AuditAnnotation };

// The variables the API server declares for an expression (plugin/cel's OptionalVariableDeclarations):
// params only with a paramKind, the authorizer not for messages and audit annotations.
cel::CompileOptions options_for(const CompiledPolicy& policy, const std::vector<std::string>& variable_names, Use use) {
  cel::CompileOptions options;
  std::vector<std::string> names = {"object", "oldObject", "request", "namespaceObject"};
  if (policy.param_kind) names.push_back("params");
  if (use != Use::Message && use != Use::AuditAnnotation) {
    names.push_back("authorizer");
    names.push_back("authorizer.requestResource");
  }
  for (const auto& v : variable_names) names.push_back("variables." + v);
  options.variables = std::move(names);
  return options;
}

// The type an expression of this use must have (cel's ReturnTypes; dyn always passes).
Expression compile_one(const std::string& source, const cel::CompileOptions& options, cel::CelType::Kind want,
                       const char* want_text) {
  Expression out;
  out.source = source;
  cel::CompileResult compiled = cel::compile(source, options);
  if (!compiled.ok()) {
    out.error = "compilation failed: " + compiled.error_text;
    while (!out.error.empty() && out.error.back() == '\n') out.error.pop_back();
    return out;
  }
  const auto kind = compiled.type.kind();
  if (want_text && kind != cel::CelType::Kind::Dyn && kind != want) {
    out.error = std::string("cel expression must evaluate to ") + want_text;
    return out;
  }
  out.program = std::move(compiled.program);
  return out;
}

}  // namespace

CompiledPolicy compile_policy(const Json& policy) {
  CompiledPolicy p;
  p.name = policy.value("/metadata/name"_json_pointer, std::string());
  p.resource_version = policy.value("/metadata/resourceVersion"_json_pointer, std::string());
  if (const Json* g = policy.contains("metadata") ? &policy["metadata"] : nullptr; g && g->contains("generation")) {
    if ((*g)["generation"].is_number_integer()) p.generation = (*g)["generation"].get<std::int64_t>();
  }
  const Json spec = policy.value("spec", Json::object());
  p.fail_closed = string_at(spec, "failurePolicy", "Fail") != "Ignore";
  if (auto pk = spec.find("paramKind"); pk != spec.end() && pk->is_object()) {
    p.param_kind = ParamKind{string_at(*pk, "apiVersion"), string_at(*pk, "kind")};
  }
  if (auto mc = spec.find("matchConstraints"); mc != spec.end() && mc->is_object()) {
    p.constraints = match_of(*mc, p.selector_error);
  }
  std::vector<std::string> variable_names;
  for (const Json& v : spec.value("variables", Json::array())) variable_names.push_back(string_at(v, "name"));

  for (const Json& c : spec.value("matchConditions", Json::array())) {
    p.match_conditions.push_back({string_at(c, "name"), compile_one(string_at(c, "expression"),
                                                                    options_for(p, variable_names, Use::MatchCondition),
                                                                    cel::CelType::Kind::Bool, "a bool")});
  }
  // A variable sees the ones before it only (the composition environment grows as they are declared).
  std::vector<std::string> earlier;
  for (const Json& v : spec.value("variables", Json::array())) {
    p.variables.push_back(
        {string_at(v, "name"), compile_one(string_at(v, "expression"), options_for(p, earlier, Use::Variable),
                                           cel::CelType::Kind::Dyn, nullptr)});
    earlier.push_back(p.variables.back().name);
  }
  for (const Json& v : spec.value("validations", Json::array())) {
    Validation validation;
    validation.expression = compile_one(string_at(v, "expression"), options_for(p, variable_names, Use::Validation),
                                        cel::CelType::Kind::Bool, "a bool");
    validation.message = string_at(v, "message");
    validation.reason = string_at(v, "reason");
    if (v.contains("messageExpression") && v["messageExpression"].is_string()) {
      validation.message_expression = compile_one(v["messageExpression"].get<std::string>(),
                                                  options_for(p, variable_names, Use::Message),
                                                  cel::CelType::Kind::String, "a string");
    }
    p.validations.push_back(std::move(validation));
  }
  for (const Json& m : spec.value("mutations", Json::array())) {
    Mutation mutation;
    mutation.json_patch = string_at(m, "patchType") == "JSONPatch";
    const Json body = m.value(mutation.json_patch ? "jsonPatch" : "applyConfiguration", Json::object());
    cel::CompileOptions options = options_for(p, variable_names, Use::Validation);
    options.object_construction = true;
    mutation.expression = compile_one(string_at(body, "expression"), options, cel::CelType::Kind::Dyn, nullptr);
    p.mutations.push_back(std::move(mutation));
  }
  p.reinvoke_if_needed = string_at(spec, "reinvocationPolicy") == "IfNeeded";
  for (const Json& a : spec.value("auditAnnotations", Json::array())) {
    p.audit_annotations.push_back(
        {string_at(a, "key"),
         compile_one(string_at(a, "valueExpression"), options_for(p, variable_names, Use::AuditAnnotation),
                     cel::CelType::Kind::Dyn, nullptr)});
  }
  return p;
}

CompiledBinding read_binding(const Json& binding) {
  CompiledBinding b;
  b.name = binding.value("/metadata/name"_json_pointer, std::string());
  const Json spec = binding.value("spec", Json::object());
  b.policy_name = string_at(spec, "policyName");
  b.actions = strings_at(spec, "validationActions");
  if (auto ref = spec.find("paramRef"); ref != spec.end() && ref->is_object()) {
    ParamRef r;
    r.name = string_at(*ref, "name");
    r.namespace_ = string_at(*ref, "namespace");
    r.deny_not_found = string_at(*ref, "parameterNotFoundAction") == "Deny";
    if (auto sel = ref->find("selector"); sel != ref->end() && sel->is_object()) {
      try {
        r.selector = selector_of(*sel);
      } catch (const std::exception& e) {
        b.selector_error = e.what();
      }
    }
    b.param_ref = std::move(r);
  }
  if (auto m = spec.find("matchResources"); m != spec.end() && m->is_object()) {
    b.match = match_of(*m, b.selector_error);
  }
  return b;
}

std::vector<ExpressionWarning> expression_warnings(const CompiledPolicy& p) {
  std::vector<ExpressionWarning> out;
  auto add = [&](const std::string& field, const Expression& e) {
    if (!e.error.empty()) out.push_back({field, e.error});
  };
  for (std::size_t i = 0; i < p.validations.size(); ++i) {
    add("spec.validations[" + std::to_string(i) + "].expression", p.validations[i].expression);
    if (p.validations[i].message_expression) {
      add("spec.validations[" + std::to_string(i) + "].messageExpression", *p.validations[i].message_expression);
    }
  }
  for (std::size_t i = 0; i < p.variables.size(); ++i) {
    add("spec.variables[" + std::to_string(i) + "].expression", p.variables[i].expression);
  }
  for (std::size_t i = 0; i < p.match_conditions.size(); ++i) {
    add("spec.matchConditions[" + std::to_string(i) + "].expression", p.match_conditions[i].expression);
  }
  for (std::size_t i = 0; i < p.mutations.size(); ++i) {
    add("spec.mutations[" + std::to_string(i) + "]." +
            (p.mutations[i].json_patch ? "jsonPatch" : "applyConfiguration") + ".expression",
        p.mutations[i].expression);
  }
  for (std::size_t i = 0; i < p.audit_annotations.size(); ++i) {
    add("spec.auditAnnotations[" + std::to_string(i) + "].valueExpression", p.audit_annotations[i].expression);
  }
  return out;
}

}  // namespace rr::admission_policy::detail
