#include "rr/admission_policy/mutating_policy.hpp"

#include <set>

#include "compiled_policy.hpp"
#include "evaluation_input.hpp"
#include "match_resources.hpp"
#include "params.hpp"
#include "policy_evaluation.hpp"
#include "rr/client/api_error.hpp"

namespace rr::admission_policy {

struct MutatingPolicyPlugin::Compiled {
  detail::CompiledPolicy policy;
  bool uses_authorizer = false;
};

namespace {

using detail::CompiledBinding;
using detail::CompiledPolicy;

constexpr const char* versions[] = {"v1beta1", "v1alpha1"};

GroupVersionKind policy_gvk(const char* version) {
  return {"admissionregistration.k8s.io", version, "MutatingAdmissionPolicy"};
}
GroupVersionKind binding_gvk(const char* version) {
  return {"admissionregistration.k8s.io", version, "MutatingAdmissionPolicyBinding"};
}

struct PolicyError {
  std::string message, reason;
};

// generic.PolicyDispatcher's refusal: admission.NewForbidden's Status (403, the resource and
// name in its details) with the first error's message and reason, every error a cause.
Status refusal(const AdmissionAttributes& a, const std::vector<PolicyError>& errors) {
  std::string name = a.name;
  if (name.empty() && a.object) name = a.object->value("/metadata/name"_json_pointer, std::string());
  if (name.empty() && a.object) name = a.object->value("/metadata/generateName"_json_pointer, std::string());
  if (name.empty()) name = "Unknown";
  Status s = api_errors::forbidden(a.kind.plural, a.kind.gvk.group, name, "admission request denied by policy");
  s.message = errors.front().message;
  if (!errors.front().reason.empty()) s.reason = errors.front().reason;
  for (const auto& e : errors) s.causes.push_back(StatusCause{.type = "", .message = e.message, .field = ""});
  return s;
}

}  // namespace

MutatingPolicyPlugin::MutatingPolicyPlugin(PolicyOptions options) : options_(std::move(options)) {}
MutatingPolicyPlugin::~MutatingPolicyPlugin() = default;

bool MutatingPolicyPlugin::mutates(const StoreReader& store) {
  for (const char* v : versions)
    if (!store.all(binding_gvk(v)).empty()) return true;
  return false;
}

void MutatingPolicyPlugin::validate(const AdmissionAttributes&) {}

void MutatingPolicyPlugin::mutate(const AdmissionAttributes& a) {
  if (!a.object || !a.store) return;
  // Policies by name (a name stored in both versions: v1beta1's), their bindings by name.
  std::map<std::string, std::shared_ptr<const Compiled>> policies;
  std::set<std::string> seen;
  for (const char* version : versions) {
    for (const Json* stored : a.store->all(policy_gvk(version))) {
      const std::string name = stored->value("/metadata/name"_json_pointer, std::string());
      const std::string key = std::string(version) + "/" + name;
      const std::string rv = stored->value("/metadata/resourceVersion"_json_pointer, std::string());
      seen.insert(key);
      auto& entry = cache_[key];
      if (!entry || entry->policy.resource_version != rv || rv.empty()) {
        auto compiled = std::make_shared<Compiled>();
        compiled->policy = detail::compile_policy(*stored);
        compiled->uses_authorizer = stored->dump().find("authorizer") != std::string::npos;
        entry = std::move(compiled);
      }
      policies.emplace(name, entry);
    }
  }
  std::erase_if(cache_, [&](const auto& e) { return !seen.contains(e.first); });
  std::map<std::string, std::map<std::string, CompiledBinding>> bindings;
  for (const char* version : versions) {
    for (const Json* stored : a.store->all(binding_gvk(version))) {
      CompiledBinding b = detail::read_binding(*stored);
      bindings[b.policy_name].emplace(b.name, std::move(b));
    }
  }

  // One invocation per policy, binding and param, in that order.
  struct Invocation {
    std::shared_ptr<const Compiled> policy;
    const CompiledBinding* binding;
    Json param;
    std::string key;
  };
  std::vector<Invocation> invocations;
  std::vector<PolicyError> errors;
  auto config_error = [&](const CompiledPolicy& p, const CompiledBinding* b, const std::string& error) {
    if (!p.fail_closed) return;
    const std::string text = b ? "failed to configure binding: " + error : "failed to configure policy: " + error;
    errors.push_back({b ? "policy '" + p.name + "' with binding '" + b->name + "' denied request: " + text
                        : "policy \"" + p.name + "\" denied request: " + text,
                      ""});
  };
  for (const auto& [name, entry] : policies) {
    const CompiledPolicy& policy = entry->policy;
    const auto bound = bindings.find(name);
    if (bound == bindings.end() || !policy.constraints) continue;
    if (!policy.selector_error.empty()) {
      config_error(policy, nullptr, policy.selector_error);
      continue;
    }
    if (!detail::matches(*policy.constraints, a)) continue;
    for (const auto& [binding_name, binding] : bound->second) {
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
        std::string key = name + "/" + binding_name;
        if (param.is_object()) {
          key += "/" + param.value("/metadata/namespace"_json_pointer, std::string()) + "/" +
                 param.value("/metadata/name"_json_pointer, std::string());
        }
        invocations.push_back({entry, &binding, std::move(param), key});
      }
    }
  }

  detail::EvaluationInput input = detail::evaluation_input(a, options_.authorize);
  auto run = [&](const Invocation& inv) {
    input.params = inv.param;
    std::optional<std::string> error;
    auto evaluate = [&] { error = detail::mutate(inv.policy->policy, input); };
    if (inv.policy->uses_authorizer && a.unlocked) a.unlocked(evaluate);
    else evaluate();
    if (error && inv.policy->policy.fail_closed) {
      errors.push_back({"policy '" + inv.policy->policy.name + "' with binding '" + inv.binding->name +
                            "' denied request: " + *error,
                        "Invalid"});
    }
  };
  // reinvocationPolicy IfNeeded: an invocation that ran before a later one changed the object runs
  // once more, after the first round (as the webhooks').
  std::set<std::string> ran_reinvocable, reinvoke;
  for (const Invocation& inv : invocations) {
    const Json before = input.object;
    run(inv);
    if (input.object != before) reinvoke.insert(ran_reinvocable.begin(), ran_reinvocable.end());
    if (inv.policy->policy.reinvoke_if_needed) ran_reinvocable.insert(inv.key);
  }
  for (const Invocation& inv : invocations) {
    if (reinvoke.contains(inv.key)) run(inv);
  }
  if (!errors.empty()) throw ApiError(refusal(a, errors));
  if (input.object != *a.object) *a.object = std::move(input.object);
}

}  // namespace rr::admission_policy
