#include "rr/admission_policy/policy_validation.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "compiled_policy.hpp"
#include "rr/core/go_quote.hpp"
#include "type_checking.hpp"

namespace rr::admission_policy {

namespace {

using detail::string_at;
using detail::strings_at;

struct Errors {
  std::vector<FieldError> list;

  void required(const std::string& path, const std::string& detail = "") {
    list.push_back({path, FieldErrorType::Required, path + ": Required value" + (detail.empty() ? "" : ": " + detail)});
  }
  void invalid(const std::string& path, const std::string& value_text, const std::string& detail) {
    list.push_back({path, FieldErrorType::Invalid, path + ": Invalid value: " + value_text + ": " + detail});
  }
  // field.NotSupported: the supported values sorted, each quoted.
  void supported(const std::string& path, const Json& value, std::vector<std::string> values) {
    if (!value.is_string() || std::find(values.begin(), values.end(), value.get<std::string>()) != values.end()) return;
    std::sort(values.begin(), values.end());
    std::string text;
    for (const auto& v : values) text += (text.empty() ? "" : ", ") + go_quote(v);
    list.push_back(
        {path, FieldErrorType::NotSupported,
         path + ": Unsupported value: " + go_quote(value.get<std::string>()) + ": supported values: " + text});
  }
  void duplicate(const std::string& path, const std::string& value) {
    list.push_back({path, FieldErrorType::Duplicate, path + ": Duplicate value: " + go_quote(value)});
  }
};

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\n\r\f\v");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\n\r\f\v") - first + 1);
}

// A CEL identifier, as the API server requires a variable's name to be.
bool is_cel_identifier(const std::string& name) {
  static const std::set<std::string> reserved = {
      "true", "false",  "null", "in",   "as",      "break",     "const",  "continue", "else", "for",  "function",
      "if",   "import", "let",  "loop", "package", "namespace", "return", "var",      "void", "while"};
  if (name.empty() || reserved.contains(name)) return false;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// What each expression is compiled with, as validation.go declares it.
struct Compile {
  const detail::TypedEnvironment& env;
  const detail::TypedEnvironment& env_without_authorizer;
  Errors& errors;

  // `wanted`: the result types allowed (empty: any); a dyn result passes (see the docs).
  void operator()(const std::string& path, const std::string& expression, bool authorizer,
                  std::vector<cel::CelType::Kind> wanted, const char* wanted_text) {
    const cel::CompileResult r = cel::compile(expression, (authorizer ? env : env_without_authorizer).options);
    if (!r.ok()) {
      std::string issues = r.error_text;
      while (!issues.empty() && issues.back() == '\n') issues.pop_back();
      errors.invalid(path, go_quote(expression), "compilation failed: " + issues);
      return;
    }
    const auto kind = r.type.kind();
    if (wanted.empty() || kind == cel::CelType::Kind::Dyn ||
        std::find(wanted.begin(), wanted.end(), kind) != wanted.end())
      return;
    errors.invalid(path, go_quote(expression),
                   std::string("must evaluate to ") + wanted_text + " but got " + r.type.to_string());
  }
};

void check_rules(Errors& errors, const Json& match, const std::string& at) {
  errors.supported(at + ".matchPolicy", match.value("matchPolicy", Json()), {"Equivalent", "Exact"});
  for (const char* key : {"resourceRules", "excludeResourceRules"}) {
    const Json rules = match.value(key, Json::array());
    if (!rules.is_array()) continue;
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const Json& rule = rules[i];
      const std::string rule_at = at + "." + key + "[" + std::to_string(i) + "]";
      if (!rule.is_object()) continue;
      if (strings_at(rule, "apiGroups").empty()) errors.required(rule_at + ".apiGroups");
      if (strings_at(rule, "apiVersions").empty()) errors.required(rule_at + ".apiVersions");
      if (strings_at(rule, "resources").empty()) errors.required(rule_at + ".resources");
      const auto operations = strings_at(rule, "operations");
      for (std::size_t o = 0; o < operations.size(); ++o) {
        errors.supported(rule_at + ".operations[" + std::to_string(o) + "]", operations[o],
                         {"*", "CREATE", "UPDATE", "DELETE", "CONNECT"});
      }
      errors.supported(rule_at + ".scope", rule.value("scope", Json()), {"Cluster", "Namespaced", "*"});
    }
  }
}

}  // namespace

std::vector<FieldError> validate_validating_policy(const Json& policy) {
  Errors errors;
  if (!policy.is_object() || !policy.value("spec", Json()).is_object()) return errors.list;
  const Json& spec = policy["spec"];
  errors.supported("spec.failurePolicy", spec.value("failurePolicy", Json()), {"Fail", "Ignore"});
  const bool has_params = spec.contains("paramKind") && spec["paramKind"].is_object();
  if (has_params) {
    if (string_at(spec["paramKind"], "apiVersion").empty()) errors.required("spec.paramKind.apiVersion");
    if (string_at(spec["paramKind"], "kind").empty()) errors.required("spec.paramKind.kind");
  }
  if (!spec.contains("matchConstraints") || !spec["matchConstraints"].is_object()) {
    errors.required("spec.matchConstraints");
  } else {
    check_rules(errors, spec["matchConstraints"], "spec.matchConstraints");
    // At least one resourceRule: the type information (upstream's comment).
    const Json rules = spec["matchConstraints"].value("resourceRules", Json::array());
    if (!rules.is_array() || rules.empty()) errors.required("spec.matchConstraints.resourceRules");
  }

  const std::optional<cel::CelType> params = has_params ? std::optional<cel::CelType>(cel::CelType::dyn())
                                                        : std::nullopt;
  const Json variables = spec.value("variables", Json::array());
  const detail::TypedEnvironment env(cel::CelType::dyn(), params, variables, true);
  const detail::TypedEnvironment no_authorizer(cel::CelType::dyn(), params, variables, false);
  Compile compile{env, no_authorizer, errors};
  using K = cel::CelType::Kind;

  const Json conditions = spec.value("matchConditions", Json::array());
  if (conditions.is_array()) {
    if (conditions.size() > 64) {
      errors.list.push_back(
          {"spec.matchConditions", FieldErrorType::TooMany,
           "spec.matchConditions: Too many: " + std::to_string(conditions.size()) + ": must have at most 64 items"});
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < conditions.size(); ++i) {
      const std::string at = "spec.matchConditions[" + std::to_string(i) + "]";
      const std::string expression = trimmed(string_at(conditions[i], "expression"));
      if (expression.empty()) {
        errors.required(at + ".expression");
      } else {
        compile(at + ".expression", expression, true, {K::Bool}, "bool");
      }
      const std::string name = string_at(conditions[i], "name");
      if (name.empty()) {
        errors.required(at + ".name");
      } else if (!names.insert(name).second) {
        errors.duplicate(at + ".name", name);
      }
    }
  }
  if (variables.is_array()) {
    std::vector<std::string> earlier;
    for (std::size_t i = 0; i < variables.size(); ++i) {
      const std::string at = "spec.variables[" + std::to_string(i) + "]";
      const std::string name = string_at(variables[i], "name");
      if (trimmed(name).empty()) {
        errors.required(at + ".name", "name is not specified");
      } else if (!is_cel_identifier(name)) {
        errors.invalid(at + ".name", go_quote(name), "name is not a valid CEL identifier");
      }
      const std::string expression = string_at(variables[i], "expression");
      if (trimmed(expression).empty()) {
        errors.required(at + ".expression", "expression is not specified");
      } else {
        // A variable sees the ones before it.
        const detail::TypedEnvironment before(
            cel::CelType::dyn(), params,
            Json(std::vector<Json>(variables.begin(), variables.begin() + static_cast<std::ptrdiff_t>(i))), true);
        Compile{before, before, errors}(at + ".expression", expression, true, {}, "");
      }
    }
  }
  const Json validations = spec.value("validations", Json::array());
  const Json annotations = spec.value("auditAnnotations", Json::array());
  const bool no_validations = !validations.is_array() || validations.empty();
  const bool no_annotations = !annotations.is_array() || annotations.empty();
  if (no_validations && no_annotations) {
    errors.required("spec.validations", "validations or auditAnnotations must contain at least one item");
    errors.required("spec.auditAnnotations", "validations or auditAnnotations must contain at least one item");
    return errors.list;
  }
  for (std::size_t i = 0; !no_validations && i < validations.size(); ++i) {
    const std::string at = "spec.validations[" + std::to_string(i) + "]";
    const std::string expression = string_at(validations[i], "expression");
    if (trimmed(expression).empty()) {
      errors.required(at + ".expression", "expression is not specified");
    } else {
      compile(at + ".expression", expression, true, {K::Bool}, "bool");
    }
    const std::string message_expression = string_at(validations[i], "messageExpression");
    if (!message_expression.empty() && trimmed(message_expression).empty()) {
      errors.invalid(at + ".messageExpression", go_quote(message_expression), "must be non-empty if specified");
    } else if (!message_expression.empty()) {
      compile(at + ".messageExpression", message_expression, false, {K::String}, "string");
    }
    errors.supported(at + ".reason", validations[i].value("reason", Json()),
                     {"Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"});
  }
  std::set<std::string> keys;
  for (std::size_t i = 0; !no_annotations && i < annotations.size(); ++i) {
    const std::string at = "spec.auditAnnotations[" + std::to_string(i) + "]";
    const std::string expression = trimmed(string_at(annotations[i], "valueExpression"));
    if (expression.empty()) {
      errors.required(at + ".valueExpression", "valueExpression is not specified");
    } else {
      compile(at + ".valueExpression", expression, true, {K::String, K::Null}, "one of [string null_type]");
    }
    const std::string key = string_at(annotations[i], "key");
    if (!keys.insert(key).second) errors.duplicate(at + ".key", key);
  }
  return errors.list;
}

std::vector<FieldError> validate_validating_binding(const Json& binding) {
  Errors errors;
  if (!binding.is_object() || !binding.value("spec", Json()).is_object()) return errors.list;
  const Json& spec = binding["spec"];
  if (string_at(spec, "policyName").empty()) errors.required("spec.policyName");
  if (auto ref = spec.find("paramRef"); ref != spec.end() && ref->is_object()) {
    const bool named = !string_at(*ref, "name").empty();
    const bool selected = ref->contains("selector") && (*ref)["selector"].is_object();
    if (named && selected) {
      for (const char* member : {"name", "selector"}) {
        const std::string at = std::string("spec.paramRef.") + member;
        errors.list.push_back(
            {at, FieldErrorType::Forbidden, at + ": Forbidden: name and selector are mutually exclusive"});
      }
    }
    if (!named && !selected) errors.required("spec.paramRef", "one of name or selector must be specified");
    errors.supported("spec.paramRef.parameterNotFoundAction", ref->value("parameterNotFoundAction", Json()),
                     {"Deny", "Allow"});
  }
  if (auto match = spec.find("matchResources"); match != spec.end() && match->is_object()) {
    // Upstream's path is spelt "matchResouces".
    check_rules(errors, *match, "spec.matchResouces");
  }
  const std::vector<std::string> actions = strings_at(spec, "validationActions");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const std::string at = "spec.validationActions[" + std::to_string(i) + "]";
    errors.supported(at, actions[i], {"Deny", "Warn", "Audit"});
    if (!seen.insert(actions[i]).second) errors.duplicate(at, actions[i]);
  }
  if (seen.contains("Deny") && seen.contains("Warn")) {
    std::string listed;
    for (const auto& a : actions) listed += (listed.empty() ? "" : ", ") + go_quote(a);
    errors.invalid("spec.validationActions", "[]admissionregistration.ValidationAction{" + listed + "}",
                   "must not contain both Deny and Warn (repeating the same validation failure information in the "
                   "API response and headers serves no purpose)");
  }
  if (seen.empty()) errors.required("spec.validationActions", "at least one validation action is required");
  return errors.list;
}

}  // namespace rr::admission_policy
