#include "rr/admission_policy/validating_policy.hpp"

#include <algorithm>
#include <set>

#include "compiled_policy.hpp"
#include "evaluation_input.hpp"
#include "match_resources.hpp"
#include "params.hpp"
#include "policy_evaluation.hpp"
#include "rr/client/api_error.hpp"

namespace rr::admission_policy {

struct ValidatingPolicyPlugin::Compiled {
  detail::CompiledPolicy policy;
  bool uses_authorizer = false;  // its evaluation may call the authorizer: run it without the lock
};

namespace {

using detail::CompiledBinding;
using detail::CompiledPolicy;

// admission.NewForbidden's name: the request's, else the object's name or generateName, else "Unknown".
std::string name_for_status(const AdmissionAttributes& a) {
  if (!a.name.empty()) return a.name;
  const Json* object = a.object ? a.object : a.old_object;
  if (object) {
    const std::string name = object->value("/metadata/name"_json_pointer, std::string());
    if (!name.empty()) return name;
    const std::string generate = object->value("/metadata/generateName"_json_pointer, std::string());
    if (!generate.empty()) return generate;
  }
  return "Unknown";
}

struct Denial {
  std::string policy, binding;  // binding empty: the policy's own configuration error
  std::string message, reason;
};

// The first denial as the API server returns it: 422 Invalid unless the validation gave a reason.
Status denial_status(const AdmissionAttributes& a, const Denial& d) {
  const std::string message = d.binding.empty()
                                  ? "ValidatingAdmissionPolicy '" + d.policy + "' denied request: " + d.message
                                  : "ValidatingAdmissionPolicy '" + d.policy + "' with binding '" + d.binding +
                                        "' denied request: " + d.message;
  Status s = api_errors::forbidden(a.kind.plural, a.kind.gvk.group, name_for_status(a), message);
  s.reason = d.reason.empty() ? "Invalid" : d.reason;
  s.code = s.reason == "Forbidden"               ? 403
           : s.reason == "Unauthorized"          ? 401
           : s.reason == "RequestEntityTooLarge" ? 413
                                                 : 422;
  s.causes.push_back(StatusCause{.type = "", .message = message, .field = ""});
  return s;
}

bool listed(const std::vector<std::string>& values, const char* value) {
  for (const auto& v : values)
    if (v == value) return true;
  return false;
}

// The validation_failure audit annotation of an Audit action (publishValidationFailureAnnotation).
std::string validation_failure_value(const CompiledBinding& b, const detail::PolicyDecision& d) {
  Json failure{{"message", d.message},
               {"policy", b.policy_name},
               {"binding", b.name},
               {"expressionIndex", d.index},
               {"validationActions", b.actions}};
  return Json::array({failure}).dump();
}

}  // namespace

ValidatingPolicyPlugin::ValidatingPolicyPlugin(PolicyOptions options) : options_(std::move(options)) {}
ValidatingPolicyPlugin::~ValidatingPolicyPlugin() = default;

bool ValidatingPolicyPlugin::mutates(const StoreReader&) { return false; }
void ValidatingPolicyPlugin::mutate(const AdmissionAttributes&) {}

std::vector<std::shared_ptr<const ValidatingPolicyPlugin::Compiled>> ValidatingPolicyPlugin::policies(
    const StoreReader& store) {
  std::vector<std::shared_ptr<const Compiled>> out;
  std::set<std::string> seen;
  for (const Json* stored : store.all(validating_policy_gvk)) {  // sorted by name
    const std::string name = stored->value("/metadata/name"_json_pointer, std::string());
    const std::string rv = stored->value("/metadata/resourceVersion"_json_pointer, std::string());
    seen.insert(name);
    auto& entry = cache_[name];
    if (!entry || entry->policy.resource_version != rv || rv.empty()) {
      auto compiled = std::make_shared<Compiled>();
      compiled->policy = detail::compile_policy(*stored);
      compiled->uses_authorizer = stored->dump().find("authorizer") != std::string::npos;
      entry = std::move(compiled);
    }
    out.push_back(entry);
  }
  std::erase_if(cache_, [&](const auto& e) { return !seen.contains(e.first); });
  return out;
}

void ValidatingPolicyPlugin::validate(const AdmissionAttributes& a) {
  if (!a.store || a.store->all(validating_binding_gvk).empty()) return;
  const auto compiled = policies(*a.store);
  if (compiled.empty()) return;
  std::map<std::string, std::vector<CompiledBinding>> bindings;  // by policy name, bindings by name
  for (const Json* stored : a.store->all(validating_binding_gvk)) {
    CompiledBinding b = detail::read_binding(*stored);
    bindings[b.policy_name].push_back(std::move(b));
  }

  std::vector<Denial> denials;
  auto config_error = [&](const CompiledPolicy& p, const CompiledBinding* b, const std::string& error) {
    if (!p.fail_closed) return;
    denials.push_back(Denial{p.name, b ? b->name : "",
                             (b ? "failed to configure binding: " : "failed to configure policy: ") + error, ""});
  };

  // What every policy sees of this write, copied: evaluation may run without the cluster's lock.
  std::optional<detail::EvaluationInput> input;
  auto input_for = [&]() -> detail::EvaluationInput& {
    if (!input) input = detail::evaluation_input(a, options_.authorize);
    return *input;
  };

  const std::string resource_text = a.kind.gvk.group.empty() ? a.kind.plural : a.kind.plural + "." + a.kind.gvk.group;
  for (const auto& entry : compiled) {
    const CompiledPolicy& policy = entry->policy;
    const auto bound = bindings.find(policy.name);
    if (bound == bindings.end()) continue;
    if (!policy.constraints) continue;  // no matchConstraints: matches nothing
    if (!policy.selector_error.empty()) {
      config_error(policy, nullptr, policy.selector_error);
      continue;
    }
    if (!detail::matches(*policy.constraints, a)) continue;
    std::map<std::string, std::vector<std::string>> audit_values;  // one policy's, by key
    for (const CompiledBinding& binding : bound->second) {
      if (!binding.selector_error.empty()) {
        config_error(policy, &binding, binding.selector_error);
        continue;
      }
      if (!detail::matches(binding.match, a)) continue;
      detail::Params params = detail::collect_params(policy, binding, *a.store, a.namespace_);
      if (!params.error.empty()) {
        config_error(policy, &binding, params.error);
        continue;
      }
      for (Json& param : params.objects) {
        detail::EvaluationInput& in = input_for();
        in.params = std::move(param);
        detail::EvaluationResult result;
        auto run = [&] { result = detail::evaluate(policy, in); };
        if (entry->uses_authorizer && a.unlocked) a.unlocked(run);
        else run();
        for (const auto& d : result.decisions) {
          if (!d.deny) continue;
          if (listed(binding.actions, "Deny"))
            denials.push_back(Denial{policy.name, binding.name, d.message, d.reason});
          if (listed(binding.actions, "Warn") && a.warnings) {
            a.warnings->push_back("Validation failed for ValidatingAdmissionPolicy '" + policy.name +
                                  "' with binding '" + binding.name + "': " + d.message);
          }
          if (listed(binding.actions, "Audit")) {
            record(AuditAnnotation{a.operation, resource_text, a.namespace_, a.name,
                                   "validation.policy.admission.k8s.io/validation_failure",
                                   validation_failure_value(binding, d)});
          }
        }
        for (auto& error : result.audit_errors) denials.push_back(Denial{policy.name, binding.name, error, ""});
        for (auto& value : result.audit_annotations) {
          auto& values = audit_values[value.key];
          if (std::find(values.begin(), values.end(), value.value) == values.end()) values.push_back(value.value);
        }
      }
    }
    // One annotation per key and policy; distinct values of several bindings joined (auditAnnotationCollector).
    for (const auto& [key, values] : audit_values) {
      std::string joined;
      for (const auto& v : values) joined += (joined.empty() ? "" : ", ") + v;
      record(AuditAnnotation{a.operation, resource_text, a.namespace_, a.name, policy.name + "/" + key, joined});
    }
  }
  if (!denials.empty()) throw ApiError(denial_status(a, denials.front()));
}

void ValidatingPolicyPlugin::record(AuditAnnotation annotation) {
  if (options_.audit) options_.audit(annotation);
  std::lock_guard lock(audit_mutex_);
  audit_.push_back(std::move(annotation));
  while (audit_.size() > options_.audit_history) audit_.pop_front();
}

std::vector<AuditAnnotation> ValidatingPolicyPlugin::recent_audit_annotations() const {
  std::lock_guard lock(audit_mutex_);
  return {audit_.begin(), audit_.end()};
}

}  // namespace rr::admission_policy
