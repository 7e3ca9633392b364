#include "webhook_configuration.hpp"

#include <algorithm>
#include <set>

namespace rr::apiserver_detail {

namespace {

std::vector<std::string> strings_of(const Json& object, const char* key) {
  std::vector<std::string> out;
  if (auto it = object.find(key); it != object.end() && it->is_array()) {
    for (const Json& v : *it) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

std::string string_of(const Json& object, const char* key, std::string fallback = {}) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// metav1.LabelSelector JSON → Selector (std::invalid_argument on a bad operator or value).
Selector selector_of(const Json& webhook, const char* key) {
  auto it = webhook.find(key);
  if (it == webhook.end() || !it->is_object()) return Selector{};
  LabelSelector selector;
  if (auto labels = it->find("matchLabels"); labels != it->end() && labels->is_object()) {
    selector.match_labels = labels->get<std::map<std::string, std::string>>();
  }
  if (auto expressions = it->find("matchExpressions"); expressions != it->end() && expressions->is_array()) {
    selector.match_expressions.emplace();
    for (const Json& e : *expressions) {
      LabelSelectorRequirement r;
      r.key = string_of(e, "key");
      r.operator_ = string_of(e, "operator");
      if (e.contains("values")) r.values = strings_of(e, "values");
      selector.match_expressions->push_back(std::move(r));
    }
  }
  return Selector::from(selector);
}

cel::CompileResult compile_condition(const std::string& expression) {
  cel::CompileOptions options;
  options.variables = std::vector<std::string>{"object", "oldObject", "request", "authorizer", "params"};
  return cel::compile(expression, options);
}

// A webhook name is a fully qualified name with at least three segments (the API server's check).
bool qualified_webhook_name(const std::string& name) {
  if (name.empty() || name.size() > 253) return false;
  if (std::count(name.begin(), name.end(), '.') < 2) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'; }) &&
         name.front() != '.' && name.back() != '.' && name.front() != '-' && name.back() != '-';
}

void supported(std::vector<FieldError>& errors, const std::string& path, const Json& value,
               std::initializer_list<const char*> allowed) {
  if (!value.is_string()) return;
  const auto text = value.get<std::string>();
  if (std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return text == a; })) return;
  std::string list;
  for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + "\"" + a + "\"";
  errors.push_back(
      {path, FieldErrorType::NotSupported, path + ": Unsupported value: \"" + text + "\": supported values: " + list});
}

}  // namespace

std::vector<AdmissionWebhook> webhooks_of(const Json& configuration, bool mutating) {
  std::vector<AdmissionWebhook> out;
  const std::string configuration_name = configuration.value("/metadata/name"_json_pointer, std::string());
  const Json webhooks = configuration.value("webhooks", Json::array());
  for (const Json& w : webhooks) {
    AdmissionWebhook hook;
    hook.configuration = configuration_name;
    hook.name = string_of(w, "name");
    hook.uid = configuration_name + "/" + hook.name;
    for (const Json& r : w.value("rules", Json::array())) {
      hook.rules.push_back(WebhookRule{strings_of(r, "operations"), strings_of(r, "apiGroups"),
                                       strings_of(r, "apiVersions"), strings_of(r, "resources"),
                                       string_of(r, "scope", "*")});
    }
    hook.namespace_selector = selector_of(w, "namespaceSelector");
    hook.object_selector = selector_of(w, "objectSelector");
    hook.fail_closed = string_of(w, "failurePolicy", "Fail") != "Ignore";
    hook.exact_match = string_of(w, "matchPolicy", "Equivalent") == "Exact";
    for (const Json& c : w.value("matchConditions", Json::array())) {
      auto compiled = compile_condition(string_of(c, "expression"));
      hook.match_conditions.push_back(MatchCondition{string_of(c, "name"), std::move(compiled.program)});
    }
    hook.timeout_seconds = w.value("timeoutSeconds", 10);
    hook.side_effects = string_of(w, "sideEffects");
    hook.reinvoke_if_needed = mutating && string_of(w, "reinvocationPolicy") == "IfNeeded";
    hook.client = webhook_client_config(w.value("clientConfig", Json()));
    out.push_back(std::move(hook));
  }
  return out;
}

std::vector<FieldError> admit_webhook_configuration(Json& configuration, bool mutating) {
  std::vector<FieldError> errors;
  if (!configuration.contains("webhooks") || !configuration["webhooks"].is_array()) return errors;
  std::set<std::string> names;
  Json& webhooks = configuration["webhooks"];
  for (std::size_t i = 0; i < webhooks.size(); ++i) {
    Json& w = webhooks[i];
    if (!w.is_object()) continue;
    const std::string at = "webhooks[" + std::to_string(i) + "]";
    // Defaults (SetDefaults_*Webhook).
    if (!w.contains("failurePolicy")) w["failurePolicy"] = "Fail";
    if (!w.contains("matchPolicy")) w["matchPolicy"] = "Equivalent";
    if (!w.contains("namespaceSelector")) w["namespaceSelector"] = Json::object();
    if (!w.contains("objectSelector")) w["objectSelector"] = Json::object();
    if (!w.contains("timeoutSeconds")) w["timeoutSeconds"] = 10;
    if (mutating && !w.contains("reinvocationPolicy")) w["reinvocationPolicy"] = "Never";
    if (w.contains("rules") && w["rules"].is_array()) {
      for (Json& r : w["rules"]) {
        if (r.is_object() && !r.contains("scope")) r["scope"] = "*";
      }
    }
    // Validation.
    const std::string name = string_of(w, "name");
    if (name.empty()) {
      errors.push_back({at + ".name", FieldErrorType::Required, at + ".name: Required value"});
    } else if (!qualified_webhook_name(name)) {
      errors.push_back({at + ".name", FieldErrorType::Invalid,
                        at + ".name: Invalid value: \"" + name +
                            "\": should be a domain with at least three segments separated by dots"});
    } else if (!names.insert(name).second) {
      errors.push_back({at + ".name", FieldErrorType::Duplicate, at + ".name: Duplicate value: \"" + name + "\""});
    }
    const auto versions = strings_of(w, "admissionReviewVersions");
    if (versions.empty()) {
      errors.push_back({at + ".admissionReviewVersions", FieldErrorType::Required,
                        at + ".admissionReviewVersions: Required value: must specify one of v1, v1beta1"});
    } else if (std::find(versions.begin(), versions.end(), "v1") == versions.end()) {
      // The local cluster speaks v1 only (v1beta1 reviews are not served).
      std::string shown;
      for (const auto& v : versions) shown += std::string(shown.empty() ? "" : ", ") + "\"" + v + "\"";
      errors.push_back(
          {at + ".admissionReviewVersions", FieldErrorType::Invalid,
           at + ".admissionReviewVersions: Invalid value: []string{" + shown + "}: must include at least one of v1"});
    }
    if (!w.contains("sideEffects")) {
      errors.push_back({at + ".sideEffects", FieldErrorType::Required,
                        at + ".sideEffects: Required value: must specify one of None, NoneOnDryRun"});
    } else {
      supported(errors, at + ".sideEffects", w["sideEffects"], {"None", "NoneOnDryRun"});
    }
    supported(errors, at + ".failurePolicy", w["failurePolicy"], {"Fail", "Ignore"});
    supported(errors, at + ".matchPolicy", w["matchPolicy"], {"Equivalent", "Exact"});
    if (mutating) supported(errors, at + ".reinvocationPolicy", w["reinvocationPolicy"], {"IfNeeded", "Never"});
    if (const Json& t = w["timeoutSeconds"]; t.is_number_integer() && (t.get<int>() < 1 || t.get<int>() > 30)) {
      errors.push_back({at + ".timeoutSeconds", FieldErrorType::Invalid,
                        at + ".timeoutSeconds: Invalid value: " + t.dump() +
                            ": the timeout value must be between 1 and 30 seconds"});
    }
    if (w.contains("rules") && w["rules"].is_array()) {
      for (std::size_t r = 0; r < w["rules"].size(); ++r) {
        const Json& rule = w["rules"][r];
        const std::string rule_at = at + ".rules[" + std::to_string(r) + "]";
        for (const auto& op : strings_of(rule, "operations")) {
          supported(errors, rule_at + ".operations", op, {"*", "CREATE", "UPDATE", "DELETE", "CONNECT"});
        }
        if (strings_of(rule, "resources").empty()) {
          errors.push_back({rule_at + ".resources", FieldErrorType::Required, rule_at + ".resources: Required value"});
        }
        supported(errors, rule_at + ".scope", rule.value("scope", Json("*")), {"Cluster", "Namespaced", "*"});
      }
    }
    for (const char* selector : {"namespaceSelector", "objectSelector"}) {
      try {
        selector_of(w, selector);
      } catch (const std::exception& e) {
        errors.push_back(
            {at + "." + selector, FieldErrorType::Invalid, at + "." + selector + ": Invalid value: " + e.what()});
      }
    }
    Json conditions = w.value("matchConditions", Json::array());
    if (!conditions.is_array()) conditions = Json::array();
    for (std::size_t c = 0; c < conditions.size(); ++c) {
      const std::string expression = string_of(conditions[c], "expression");
      auto compiled = compile_condition(expression);
      if (!compiled.ok()) {
        const std::string path = at + ".matchConditions[" + std::to_string(c) + "].expression";
        errors.push_back(
            {path, FieldErrorType::Invalid,
             path + ": Invalid value: \"" + expression + "\": compilation failed: " + compiled.error_text});
      }
    }
    try {
      webhook_client_config(w.value("clientConfig", Json()));
    } catch (const std::exception& e) {
      errors.push_back({at + ".clientConfig", FieldErrorType::Required, at + "." + e.what()});
    }
    const Json url_value = w.value("/clientConfig/url"_json_pointer, Json());
    if (const std::string url = url_value.is_string() ? url_value.get<std::string>() : std::string();
        !url.empty() && url.rfind("https://", 0) != 0) {
      errors.push_back({at + ".clientConfig.url", FieldErrorType::Invalid,
                        at + ".clientConfig.url: Unsupported value: \"" + url.substr(0, url.find(':')) +
                            "\": supported values: \"https\""});
    }
  }
  return errors;
}

}  // namespace rr::apiserver_detail
